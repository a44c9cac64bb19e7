import assert from 'node:assert/strict'
import { asPerson, createAccount, sessionOf } from './accounts.ts'
import { EXAMPLE_BATCH, invoice, postBatch, type Answer, type Invoice } from './batches.ts'
import { OPERATOR, operator } from './operator.ts'
import { OPERATOR_KEY, type TestService } from './service.ts'

/**
 * The settlement's tests (issue 40) build manifests of one-line invoices whose line holds 100
 * units for the invoice's whole Total, so a return of k units returns k % of the invoice exactly.
 * Dates: the default clock's today, 2026-11-22 (10:00 in Honduras); manifests arrive then.
 */
export const BANK = 'BAC Credomatic'
export const TODAY = '2026-11-22'

/** An invoice of `almacen` for `total` with one line of 100 units (UN) for the same total. */
export function lineInvoice(nfactura: string, manifiesto: string, almacen: string, total: number): Invoice {
  const line = {
    ...structuredClone((EXAMPLE_BATCH[0]!.LineasFactura as Invoice[])[0]!),
    NumeroLinea: 1,
    UniVenta: 'UN',
    CantidadCaja: 0,
    CantidadFracciones: 100,
    FactorConversion: 1,
    Total: total,
  }
  return invoice(nfactura, manifiesto, { Almacen: almacen, Total: total, LineasFactura: [line] })
}

/** Posts a batch that must be accepted whole. */
export async function acceptBatch(service: TestService, invoices: Invoice[]): Promise<void> {
  const answer = await postBatch(service, invoices)
  assert.equal(answer.status, 200, JSON.stringify(answer.body).slice(0, 500))
}

/** The reason DANADO, once per service. */
export async function seedReason(service: TestService): Promise<void> {
  const created = await operator(service, 'POST', 'conceptos', { codigo: 'DANADO', descripcion: 'Producto dañado' })
  assert.equal(created.status, 201, JSON.stringify(created.body))
}

export type ReturnEnd = 'pending' | 'approved' | 'rejected' | 'cancelled'

/** A return of `units` of the invoice's only line, taken to the state `end` through the API; its id. */
export async function returnOf(service: TestService, factura: string, units: number, end: ReturnEnd): Promise<string> {
  const created = await operator(service, 'POST', 'devoluciones', {
    factura,
    concepto: 'DANADO',
    fecha: TODAY,
    lineas: [{ numeroLinea: 1, unidades: units }],
    aprobar: end === 'approved' || end === 'cancelled',
  })
  assert.equal(created.status, 201, JSON.stringify(created.body))
  const id = String(created.body.id)
  if (end === 'rejected')
    assert.equal(
      (await operator(service, 'POST', `devoluciones/${id}/rechazar`, { motivo: 'No corresponde' })).status,
      200,
    )
  if (end === 'cancelled')
    assert.equal(
      (await operator(service, 'POST', `devoluciones/${id}/anular`, { motivo: 'Se registró mal' })).status,
      200,
    )
  return id
}

let slips = 0
/** A deposit's body with a slip number never used before in this process. */
export function depositBody(monto: number, extra: Record<string, unknown> = {}): Record<string, unknown> {
  slips += 1
  return { monto, fecha: TODAY, banco: BANK, referencia: `B-${String(slips).padStart(6, '0')}`, ...extra }
}

/** The people of the settlement's tests: finance and a supervisor of OAC, finance of OAS, an operator of OAC, an admin. */
export const PEOPLE = {
  'op-oac': 'operador',
  'sup-oac': 'supervisor',
  'fin-oac': 'finanzas',
  'fin-oas': 'finanzas',
  admin: 'admin',
  sup: 'supervisor',
} as const
export type Person = keyof typeof PEOPLE
export type Who = Person | 'clave'

export async function createPeople(service: TestService): Promise<void> {
  for (const [usuario, rol] of Object.entries(PEOPLE)) {
    const almacenes = usuario.endsWith('-oac') ? ['OAC'] : usuario.endsWith('-oas') ? ['OAS'] : 'todos'
    await createAccount(service, usuario, rol, almacenes)
  }
}

const cookies = new WeakMap<TestService, Map<string, string>>()

/** An operator request as the integration key or as one of PEOPLE (their session kept per service). */
export async function as(
  service: TestService,
  who: Who,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: Answer }> {
  if (who === 'clave') return operator(service, method, path, body)
  let known = cookies.get(service)
  if (known === undefined) cookies.set(service, (known = new Map()))
  let cookie = known.get(who)
  if (cookie === undefined) known.set(who, (cookie = await sessionOf(service, who)))
  return asPerson(service, cookie, method, path, body)
}

/** Registers a deposit that must be accepted; its id. */
export async function deposit(
  service: TestService,
  numero: string,
  body: Record<string, unknown>,
  who: Who = 'clave',
): Promise<string> {
  const answer = await as(service, who, 'POST', `manifiestos/${numero}/depositos`, body)
  assert.equal(answer.status, 201, JSON.stringify(answer.body))
  return String(answer.body.id)
}

/** The manifest's settlement as `who` sees it in its detail. */
export async function settlementOf(service: TestService, numero: string, who: Who = 'clave'): Promise<Answer> {
  const answer = await as(service, who, 'GET', `manifiestos/${numero}`)
  assert.equal(answer.status, 200, JSON.stringify(answer.body))
  return answer.body.liquidacion as Answer
}

/** Counts of the settlement's tables, to hold that a refusal wrote nothing. */
export function settlementRows(service: TestService): {
  deposits: number
  receipts: number
  adjustments: number
  audit: number
} {
  const count = (table: string) => Number(service.db.sqlite.prepare(`SELECT count(*) FROM ${table}`).pluck().get())
  return {
    deposits: count('deposits'),
    receipts: count('deposit_receipts'),
    adjustments: count('settlement_adjustments'),
    audit: count('audit_log'),
  }
}

/**
 * For tests of something else that close manifests (conflicts, re-issues, roles, history): the
 * configuration that lets a manifest close without its settlement (settlement.closeRequiresSettlement false).
 */
export const CLOSE_UNSETTLED = { settlement: { closeRequiresSettlement: false } }

/** A real 1×1 PNG, a JPEG's and a PDF's first bytes (the service recognises files by their signature). */
export const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
)
export const JPEG = Buffer.concat([
  Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]),
  Buffer.from('JFIF\u0000 foto de boleta de prueba', 'latin1'),
])
export const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n',
  'latin1',
)

/**
 * A deposit's receipt sent as `who` (PUT depositos/{id}/comprobante): the file is the body.
 * @returns the status and the JSON answer.
 */
export async function putReceipt(
  service: TestService,
  who: Who,
  id: string,
  bytes: Buffer,
  options: { type?: string; nombre?: string } = {},
): Promise<{ status: number; body: Answer }> {
  const query = options.nombre === undefined ? '' : `?nombre=${encodeURIComponent(options.nombre)}`
  const response = await service.fetch(`/api/v1/operador/depositos/${id}/comprobante${query}`, {
    method: 'PUT',
    headers: {
      ...(await credentialsOf(service, who)),
      ...(options.type === undefined ? {} : { 'Content-Type': options.type }),
    },
    body: bytes,
  })
  const text = await response.text()
  return { status: response.status, body: (text === '' ? null : JSON.parse(text)) as Answer }
}

/** A deposit's receipt read as `who`: status, headers and bytes. */
export function getReceipt(
  service: TestService,
  who: Who,
  id: string,
): Promise<{ status: number; headers: Headers; bytes: Buffer }> {
  return download(service, who, `depositos/${id}/comprobante`)
}

/** A GET of the operator API as `who` whose answer may be a file: status, headers and bytes. */
export async function download(
  service: TestService,
  who: Who,
  path: string,
): Promise<{ status: number; headers: Headers; bytes: Buffer }> {
  const response = await service.fetch(`/api/v1/operador/${path}`, { headers: await credentialsOf(service, who) })
  return { status: response.status, headers: response.headers, bytes: Buffer.from(await response.arrayBuffer()) }
}

async function credentialsOf(service: TestService, who: Who): Promise<Record<string, string>> {
  if (who === 'clave') return { OperatorKey: OPERATOR_KEY, Operador: encodeURIComponent(OPERATOR) }
  let known = cookies.get(service)
  if (known === undefined) cookies.set(service, (known = new Map()))
  let cookie = known.get(who)
  if (cookie === undefined) known.set(who, (cookie = await sessionOf(service, who)))
  return { Cookie: cookie, Origin: service.url }
}

/** An audit_log row as the tests read it with SQL. */
export interface AuditRow {
  action: string
  subject_type: string
  subject_id: string
  before: string
  after: string
  detail: string
}
