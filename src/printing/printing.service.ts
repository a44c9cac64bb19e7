import { auditedBy, narrowedScope, scopeOf, type Actor } from '../access/actor.ts'
import { insertAuditEntry } from '../audit/audit.store.ts'
import { formatLocalDateTime, toStoredInstant, type Clock } from '../core/clock.ts'
import { invalidInput, notFound } from '../core/errors.ts'
import type { ChunkCache } from '../batches/body-chunks.ts'
import { transaction, type Database } from '../db/database.ts'
import { findInvoiceOriginal } from '../invoices/invoices.store.ts'
import { manifestNotFoundMessage } from '../manifests/manifests.service.ts'
import { findManifestSummary } from '../manifests/manifests.store.ts'
import { byRoute, markOf, printInvoiceOf } from './print-invoice.ts'
import type { ManifestPrint, MarkedPrints, PrintInvoice } from './printing.schemas.ts'
import {
  findPrintRow,
  findPrintRows,
  findPrintRowsByNumbers,
  upsertInvoicePrint,
  type PrintRow,
} from './printing.store.ts'

export interface PrintingDeps {
  db: Database
  clock: Clock
}

/**
 * A manifest's invoices of the actor's warehouses (or of `almacen`, one of them) as the route
 * sheet and the invoices print them, in route order, in one answer: each with the supplier's
 * fields as sent, its lines and whether it was printed before. Annulled invoices are included,
 * marked `anulada` (the views leave them out).
 * @throws DomainError NOT_FOUND when the manifest is unknown or has none of those invoices.
 */
export function getManifestPrint(
  deps: PrintingDeps,
  actor: Actor,
  numero: string,
  almacen: string | undefined,
): ManifestPrint {
  const scope = narrowedScope(actor, almacen)
  const manifest = findManifestSummary(deps.db, numero, scope)
  if (manifest === undefined) {
    throw notFound(
      almacen === undefined
        ? manifestNotFoundMessage(numero)
        : `El manifiesto ${numero} no tiene facturas del almacén ${almacen} que usted pueda ver.`,
    )
  }
  const cache: ChunkCache = new Map()
  const facturas = findPrintRows(deps.db, manifest.id, scope)
    .map((row) => printOf(deps, row, cache))
    .sort(byRoute)
  return {
    manifiesto: manifest.numero,
    estado: manifest.estado,
    fecha_ingreso: formatLocalDateTime(deps.clock, manifest.created_at),
    almacenes: [...new Set(facturas.map((invoice) => invoice.almacen))].sort(),
    facturas,
  }
}

/**
 * One invoice of the actor's warehouses as the paper prints it.
 * @throws DomainError NOT_FOUND when unknown or of another warehouse.
 */
export function getInvoicePrint(deps: PrintingDeps, actor: Actor, nfactura: string): PrintInvoice {
  const row = findPrintRow(deps.db, nfactura, scopeOf(actor))
  if (row === undefined) throw notFound(`No existe la factura ${nfactura}.`)
  return printOf(deps, row, new Map())
}

/**
 * Records that these invoices are being printed now, by the actor: an invoice never printed
 * gets its original mark; one printed before counts a copy (`copia: true`, the paper says
 * COPIA). One audit entry per invoice (`factura.impresa` or `factura.reimpresa`), all in one
 * transaction.
 * @throws DomainError INVALID_INPUT for a number given twice or an annulled invoice (a confirmed
 * re-issue is not delivered); NOT_FOUND naming the first unknown invoice or of another warehouse.
 */
export function markPrinted(deps: PrintingDeps, actor: Actor, facturas: readonly string[]): MarkedPrints {
  const repeated = facturas.find((factura, index) => facturas.indexOf(factura) !== index)
  if (repeated !== undefined) throw invalidInput(`facturas: ${repeated} está repetida; nombre cada factura una vez.`)
  const { db, clock } = deps
  return transaction(db, () => {
    const rows = new Map(findPrintRowsByNumbers(db, facturas, scopeOf(actor)).map((row) => [row.nfactura, row]))
    const missing = facturas.find((factura) => !rows.has(factura))
    if (missing !== undefined) throw notFound(`No existe la factura ${missing}.`)
    const annulled = facturas.find((factura) => rows.get(factura)!.annulled_at !== null)
    if (annulled !== undefined)
      throw invalidInput(`La factura ${annulled} está anulada (re-emisión confirmada): no se entrega ni se imprime.`)
    const at = toStoredInstant(clock.now())
    const who = auditedBy(actor)
    const impresas = facturas.map((factura) => {
      const row = rows.get(factura)!
      const copia = row.first_at !== null
      upsertInvoicePrint(db, row.id, at, actor.nombre)
      insertAuditEntry(db, {
        at,
        ...who,
        action: copia ? 'factura.reimpresa' : 'factura.impresa',
        subjectType: 'factura',
        subjectId: factura,
        detail: { manifiesto: row.manifiesto, ...(copia ? { copia: (row.copies ?? 0) + 1 } : {}) },
      })
      const mark = copia
        ? {
            first_at: row.first_at,
            first_by: row.first_by,
            last_at: at,
            last_by: actor.nombre,
            copies: (row.copies ?? 0) + 1,
          }
        : { first_at: at, first_by: actor.nombre, last_at: at, last_by: actor.nombre, copies: 0 }
      return { factura, copia, impresa: markOf(clock, mark)! }
    })
    return { impresas }
  })
}

function printOf(deps: PrintingDeps, row: PrintRow, cache: ChunkCache): PrintInvoice {
  return printInvoiceOf(
    deps.clock,
    row,
    JSON.parse(findInvoiceOriginal(deps.db, row.id, cache)) as Record<string, unknown>,
  )
}
