import { run, type Database } from '../../src/db/database.ts'
import { columnValue, INVOICE_FIELDS, LINE_FIELDS, LINES_FIELD } from '../../src/invoices/invoice-fields.ts'

/**
 * Direct rows for tests of read endpoints, until the intake pipeline can create them through
 * the API. Only the columns the tests care about are parameters; the rest are plausible values.
 */
export function insertBatchRow(db: Database, uuid = 'lote-de-prueba'): number {
  const result = run(
    db,
    db.query.insertInto('batches').values({
      uuid,
      received_at: '2026-11-22T16:00:00.000Z',
      received_date: '2026-11-22',
      content_hash: `hash-${uuid}`,
      client_ip: '127.0.0.1',
      key_fingerprint: 'abcdef123456',
      estado: 'processed',
      invoice_count: 0,
      http_status: 200,
      summary: null,
      failure: null,
      finished_at: '2026-11-22T16:00:01.000Z',
      payload_pruned_at: null,
    }),
  )
  return Number(result.lastInsertRowid)
}

export function insertManifestRow(
  db: Database,
  manifest: { numero: string; createdAt: string; estado?: 'imported' | 'closed'; batchId?: number },
): number {
  const result = run(
    db,
    db.query.insertInto('manifests').values({
      numero: manifest.numero,
      estado: manifest.estado ?? 'imported',
      created_at: manifest.createdAt,
      created_batch_id: manifest.batchId ?? null,
      closed_at: manifest.estado === 'closed' ? manifest.createdAt : null,
    }),
  )
  return Number(result.lastInsertRowid)
}

function hasColumn(db: Database, table: string, column: string): boolean {
  return db.sqlite.prepare('SELECT 1 FROM pragma_table_info(?) WHERE name = ?').get(table, column) !== undefined
}

export function insertInvoiceRow(
  db: Database,
  invoice: { nfactura: string; manifestId: number; batchId: number; total: number },
): number {
  const result = run(
    db,
    db.query.insertInto('invoices').values({
      nfactura: invoice.nfactura,
      manifest_id: invoice.manifestId,
      batch_id: invoice.batchId,
      fecha_factura: '2026-11-22',
      fecha_vencimiento: null,
      almacen: 'OAC',
      vendedor_id: 'V01',
      vendedor: null,
      cliente_id: 'C01',
      cliente: 'Cliente de prueba',
      rtn: null,
      cai: null,
      depto: null,
      municipio: null,
      direccion: null,
      tel: null,
      numero_pedido: null,
      numero_ruta: null,
      numero_factura_lx: null,
      tipo_pago: null,
      dias_cred: null,
      tipo_factura: null,
      estado_factura: null,
      importe_grabado: null,
      importe_gravado_isv15: null,
      importe_gravado_total: null,
      isv15: null,
      isv18: null,
      descuentos_rebajas: null,
      total: invoice.total,
      original: JSON.stringify({ Nfactura: invoice.nfactura, Total: invoice.total }),
      created_at: '2026-11-22T16:00:00.000Z',
      updated_at: null,
      // Before schema version 8 every invoice carried its content hash.
      ...(hasColumn(db, 'invoices', 'content_hash') ? ({ content_hash: `hash-${invoice.nfactura}` } as object) : {}),
    }),
  )
  return Number(result.lastInsertRowid)
}

/**
 * An invoice as a database written before schema version 5 holds it (no fingerprint): its
 * interface fields in their columns and its lines, with plain SQL on the columns of version 1.
 */
export function insertLegacyInvoice(
  db: Database,
  raw: Record<string, unknown>,
  manifestId: number,
  batchId: number,
): number {
  const header = INVOICE_FIELDS.filter((spec) => spec.column !== null && spec.column !== 'fecha_factura')
  const columns = [
    'manifest_id',
    'batch_id',
    'fecha_factura',
    ...header.map((spec) => spec.column!),
    'original',
    'content_hash',
    'created_at',
  ]
  const values = [
    manifestId,
    batchId,
    String(raw.FechaFactura).slice(0, 10),
    ...header.map((spec) => columnValue(spec, raw[spec.name])),
    JSON.stringify(raw),
    `hash-${String(raw.Nfactura)}`,
    '2026-11-21T16:00:00.000Z',
  ]
  const id = Number(
    db.sqlite
      .prepare(`INSERT INTO invoices (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`)
      .run(values).lastInsertRowid,
  )
  const lineColumns = ['invoice_id', 'position', ...LINE_FIELDS.map((spec) => spec.column!)]
  const insertLine = db.sqlite.prepare(
    `INSERT INTO invoice_lines (${lineColumns.join(', ')}) VALUES (${lineColumns.map(() => '?').join(', ')})`,
  )
  ;(raw[LINES_FIELD] as Array<Record<string, unknown>>).forEach((line, position) =>
    insertLine.run([id, position, ...LINE_FIELDS.map((spec) => columnValue(spec, line[spec.name]))]),
  )
  return id
}
