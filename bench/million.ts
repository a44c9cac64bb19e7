/**
 * A database of `count` stored invoices for measuring the operator lists (issue 15: one page
 * ≤ 50 ms with 1,000,000 invoices), filled with SQL in one transaction — through the intake it
 * would take an hour. Shaped like the supplier's traffic: 330 invoices per manifest, one manifest
 * every two hours from 2026-01-01 and its own batch, three warehouses, invoices of realistic size
 * (the original of a generated invoice), a return in every tenth invoice (a third pending), a
 * pending conflict in every 2000th and 100,000 audit entries. Invoices have no lines: no list
 * reads them. Client names are varied (kind of shop, given name, two surnames) and every invoice is
 * in the search index (its triggers fill it as the rows go in). The money (issue 40): one deposit per invoice in ten (100,000 for a million) — every
 * part of a closed manifest settled by one deposit of exactly its a_depositar, the rest spread over
 * the open manifests' parts in five banks, one in fifty registered today — and a cent adjustment
 * on every tenth open manifest. Used by the bench's `lists` group and by bench/console-lists.ts.
 */
import type { openDatabase } from '../src/db/database.ts'
import { generateBatch } from './generator.ts'

export const PER_MANIFEST = 330
const FIRST_MANIFEST = 700_000
/** The first manifest's creation; manifest k was created 2k hours later. */
const FIRST_INSTANT = '2026-01-01T16:00:00.000Z'

/** The manifest in the middle of the numbers: its invoices' page is a typical one. */
export function middleManifest(count: number): string {
  return String(FIRST_MANIFEST + Math.floor(manifestCount(count) / 2))
}

/** The number of the invoice in the middle (the builder numbers them G-000000000 on). */
export function middleInvoice(count: number): string {
  return `G-${String(Math.floor(count / 2)).padStart(9, '0')}`
}

/** The day (Honduras, UTC-6) the middle manifest's batch was received: a day with batches. */
export function middleBatchDay(count: number): string {
  const k = Math.floor(manifestCount(count) / 2)
  return new Date(Date.parse(FIRST_INSTANT) + k * 2 * 3_600_000 - 6 * 3_600_000).toISOString().slice(0, 10)
}

function manifestCount(count: number): number {
  return Math.ceil(count / PER_MANIFEST)
}

/** The day the bench's deposits say they were registered, for Inicio's «today» (Honduras, UTC-6). */
export function honduranToday(): string {
  return new Date(Date.now() - 6 * 3600_000).toISOString().slice(0, 10)
}

export function fillDatabase(db: ReturnType<typeof openDatabase>, count: number): void {
  const original = JSON.stringify(generateBatch(1, { fecha: '2026-11-01' })[0])
  const manifests = manifestCount(count)
  db.sqlite.exec(`
    BEGIN;
    WITH RECURSIVE n(k) AS (SELECT 0 UNION ALL SELECT k + 1 FROM n WHERE k < ${manifests - 1}),
      batch(k, at, invoices) AS (
        SELECT k, strftime('%Y-%m-%dT%H:%M:%fZ', '${FIRST_INSTANT}', '+' || (k * 2) || ' hours'), min(${PER_MANIFEST}, ${count} - k * ${PER_MANIFEST}) FROM n)
    INSERT INTO batches (uuid, received_at, received_date, content_hash, client_ip, key_fingerprint, estado, invoice_count, http_status, summary, finished_at)
      SELECT printf('00000000-0000-4000-8000-%012d', k), at, date(at, '-6 hours'), 'h' || k, '127.0.0.1', 'abc', 'processed', invoices, 200,
        '{"recibidas":' || invoices || ',"insertadas":' || invoices || ',"actualizadas":0,"sin_cambios":0,"pendientes_revision":0,"rechazadas":0}', at
      FROM batch;
    INSERT INTO return_reasons (codigo, descripcion, created_at) VALUES ('DANADO', 'Producto dañado', '2026-11-01T16:00:00.000Z');
    INSERT INTO manifests (numero, estado, created_at, created_batch_id)
      SELECT CAST(${FIRST_MANIFEST} + id - 1 AS TEXT), CASE WHEN (id - 1) % 4 = 0 THEN 'closed' ELSE 'imported' END, received_at, id FROM batches ORDER BY id;
    WITH RECURSIVE n(k) AS (SELECT 0 UNION ALL SELECT k + 1 FROM n WHERE k < ${count - 1})
    INSERT INTO invoices (nfactura, manifest_id, batch_id, fecha_factura, almacen, vendedor_id, cliente_id, cliente, rtn, numero_ruta, total, original, created_at)
      SELECT 'G-' || printf('%09d', k), 1 + k / ${PER_MANIFEST}, 1 + k / ${PER_MANIFEST}, '2026-11-01', CASE k % 3 WHEN 0 THEN 'OAC' WHEN 1 THEN 'OAS' ELSE 'OAO' END, 'V01',
        CAST(40000000 + k % 3000 AS TEXT), ${CLIENT_NAME}, printf('0801199%07d', k % 3000), 'R-' || (k % 40), 1000 + (k % 5000) + 0.18,
        ${sqlText(original)}, '2026-11-01T16:00:00.000Z' FROM n;
    INSERT INTO returns (invoice_id, reason_codigo, fecha, estado, total_cents, listed_lines, registered_at, registered_date, registered_by)
      SELECT id, 'DANADO', '2026-11-01T09:00:00', CASE id % 3 WHEN 0 THEN 'pending' ELSE 'approved' END, 1234, '[]', '2026-11-01T16:00:00.000Z', '2026-11-01', 'Ana'
      FROM invoices WHERE id % 10 = 0;
    INSERT INTO return_lines (return_id, numero_linea, producto_id, producto_desc, uni_venta, factor_conversion, units, amount_cents)
      SELECT id, 1, '30110205', 'ACEITE', 'UN', 1, 1, 1234 FROM returns;
    INSERT INTO invoice_conflicts (invoice_id, batch_id, changed_fields, existing_original, incoming_original, incoming_hash, created_at)
      SELECT id, 1, '["Tel"]', original, original, 'c' || id, '2026-11-01T16:00:00.000Z' FROM invoices WHERE id % 2000 = 0;
    WITH RECURSIVE n(k) AS (SELECT 0 UNION ALL SELECT k + 1 FROM n WHERE k < 99999)
    INSERT INTO audit_log (at, actor, action, subject_type, subject_id) SELECT '2026-11-01T16:00:00.000Z', 'Ana', 'devolucion.aprobada', 'devolucion', CAST(k + 1 AS TEXT) FROM n;
    COMMIT;`)
  fillMoney(db, manifests, Math.floor(count / 10))
}

/** The deposits and adjustments of the settlement (see the file's comment): `deposits` in all. */
function fillMoney(db: ReturnType<typeof openDatabase>, manifests: number, deposits: number): void {
  const today = honduranToday()
  db.sqlite.exec(`
    BEGIN;
    INSERT INTO deposits (manifest_id, almacen, amount_cents, fecha, banco, referencia, referencia_clave, registered_at, registered_date, registered_by)
      SELECT t.manifest_id, t.almacen, (t.counted_micros + 5000) / 10000 - t.approved_cents, date(m.created_at, '-6 hours'), 'BAC Credomatic',
        'C-' || t.manifest_id || '-' || t.almacen, 'C' || t.manifest_id || t.almacen, m.created_at, date(m.created_at, '-6 hours'), 'Ana'
      FROM manifest_totals t JOIN manifests m ON m.id = t.manifest_id WHERE m.estado = 'closed' AND (t.counted_micros + 5000) / 10000 > t.approved_cents;
    WITH RECURSIVE n(k) AS (SELECT 0 UNION ALL SELECT k + 1 FROM n WHERE k < ${deposits} - (SELECT count(*) FROM deposits) - 1),
      slot(k, manifest_id, almacen) AS (
        SELECT k, CASE WHEN (k % ${manifests}) % 4 = 0 THEN min(k % ${manifests} + 2, ${manifests}) ELSE k % ${manifests} + 1 END,
          CASE (k / ${manifests}) % 3 WHEN 0 THEN 'OAC' WHEN 1 THEN 'OAS' ELSE 'OAO' END FROM n)
    INSERT INTO deposits (manifest_id, almacen, amount_cents, fecha, banco, referencia, referencia_clave, registered_at, registered_date, registered_by)
      SELECT s.manifest_id, s.almacen, 10000 + (s.k * 7919) % 500000, date(m.created_at, '-6 hours', '+' || (s.k % 3) || ' days'),
        CASE s.k % 5 WHEN 0 THEN 'Banco de Occidente' WHEN 1 THEN 'BAC Credomatic' WHEN 2 THEN 'Ficohsa' WHEN 3 THEN 'Banco Atlántida' ELSE 'Banpaís' END,
        'R-' || s.k, 'R' || s.k, m.created_at, CASE WHEN s.k % 50 = 0 THEN '${today}' ELSE date(m.created_at, '-6 hours') END, 'Ana'
      FROM slot s JOIN manifests m ON m.id = s.manifest_id;
    INSERT INTO settlement_adjustments (manifest_id, almacen, amount_cents, motivo, created_at, created_by)
      SELECT id, 'OAC', 37, 'Redondeo del banco', created_at, 'Ana' FROM manifests WHERE estado = 'imported' AND id % 10 = 0;
    COMMIT;`)
  // No ANALYZE: the service never runs it, so the planner works without statistics there too.
}

/**
 * 3,000 clients named as the supplier names them (kind of shop, a given name, two surnames, with
 * their accents): what the header search (issue 41) looks through. Client c = k % 3000.
 */
const KINDS = ['PULPERIA', 'FARMACIA', 'ABARROTERIA', 'SUPER', 'BODEGA', 'MINI SUPER', 'COMERCIAL', 'TIENDA']
const GIVEN = [
  'DILCIA',
  'JOSÉ',
  'MARÍA',
  'ÁNGEL',
  'LUCÍA',
  'RAMÓN',
  'SOFÍA',
  'JESÚS',
  'INÉS',
  'TOMÁS',
  'CARMEN',
  'ÓSCAR',
  'NOÉ',
  'RUTH',
  'ELÍAS',
]
const SURNAMES = [
  'MEJÍA',
  'ESPINAL',
  'HERNÁNDEZ',
  'LÓPEZ',
  'MARTÍNEZ',
  'RODRÍGUEZ',
  'PÉREZ',
  'GÓMEZ',
  'DÍAZ',
  'CÁCERES',
  'ZÚNIGA',
  'FÚNEZ',
  'NÚÑEZ',
  'ORDÓÑEZ',
  'SUAZO',
  'BANEGAS',
  'PAZ',
  'REYES',
  'ALVARADO',
  'MONCADA',
]
const pick = (list: string[], index: string) =>
  `json_extract(${sqlText(JSON.stringify(list))}, '$[' || (${index}) || ']')`
const CLIENT_NAME = [
  pick(KINDS, `(k % 3000) % ${KINDS.length}`),
  pick(GIVEN, `((k % 3000) / ${KINDS.length}) % ${GIVEN.length}`),
  pick(SURNAMES, `((k % 3000) / ${KINDS.length * GIVEN.length}) % ${SURNAMES.length}`),
  pick(SURNAMES, `((k % 3000) / 7) % ${SURNAMES.length}`),
].join(" || ' ' || ")

function sqlText(text: string): string {
  return `'${text.replace(/'/g, "''")}'`
}
