import { formatLocalDateTime } from '../clock.ts'
import { first } from '../db/database.ts'
import { notFound } from '../errors.ts'
import { findConflicts, toConflictSummary, type ConflictSummary } from '../conflicts/conflicts.store.ts'
import { factorOf, lineUnits } from '../returns/quantities.ts'
import { findHeldUnits, findInvoiceLines } from '../returns/returns.store.ts'
import { listReturns, type ReturnsDeps, type ReturnView } from '../returns/returns.service.ts'

export interface InvoiceView {
  factura: string
  manifiesto: string
  manifiesto_estado: string
  almacen: string
  clienteid: string
  cliente: string
  fecha_factura: string
  total: number
  recibida_en: string
  actualizada_en: string | null
  lineas: Array<{ numeroLinea: number; productoId: string; producto: string; uniVenta: string | null; factorConversion: number; unidades: number; devueltas: number; disponibles: number; total: number }>
  devoluciones: ReturnView[]
  conflicto_pendiente: ConflictSummary | null
  /** The invoice exactly as received (the version currently stored), unknown fields included. */
  original: unknown
}

/**
 * An invoice for the warehouse: its lines with units, units held by pending and approved returns
 * and units still available, its returns, any pending conflict, and the original JSON.
 * @throws DomainError NOT_FOUND
 */
export function getInvoice(deps: ReturnsDeps, nfactura: string): InvoiceView {
  const { db, clock } = deps
  const row = first(
    db,
    db.query
      .selectFrom('invoices as i')
      .innerJoin('manifests as m', 'm.id', 'i.manifest_id')
      .select(['i.id', 'i.nfactura', 'm.numero', 'm.estado', 'i.almacen', 'i.cliente_id', 'i.cliente', 'i.fecha_factura', 'i.total', 'i.created_at', 'i.updated_at', 'i.original'])
      .where('i.nfactura', '=', nfactura),
  )
  if (row === undefined) throw notFound(`No existe la factura ${nfactura}.`)
  const held = findHeldUnits(db, row.id)
  const pending = findConflicts(db, { invoiceId: row.id, estado: 'pending' })
  return {
    factura: row.nfactura,
    manifiesto: row.numero,
    manifiesto_estado: row.estado,
    almacen: row.almacen,
    clienteid: row.cliente_id,
    cliente: row.cliente,
    fecha_factura: row.fecha_factura,
    total: row.total,
    recibida_en: formatLocalDateTime(clock, row.created_at),
    actualizada_en: row.updated_at === null ? null : formatLocalDateTime(clock, row.updated_at),
    lineas: findInvoiceLines(db, row.id).map((line) => {
      const units = lineUnits(line)
      const returned = held.get(line.numero_linea) ?? 0
      return {
        numeroLinea: line.numero_linea,
        productoId: line.producto_id,
        producto: line.producto_desc,
        uniVenta: line.uni_venta,
        factorConversion: factorOf(line),
        unidades: units,
        devueltas: returned,
        disponibles: units - returned,
        total: line.total,
      }
    }),
    devoluciones: listReturns(deps, { invoiceId: row.id }),
    conflicto_pendiente: pending.length === 0 ? null : toConflictSummary(clock, pending[pending.length - 1]!),
    original: JSON.parse(row.original) as unknown,
  }
}
