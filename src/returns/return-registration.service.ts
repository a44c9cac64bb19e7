import { LocalDate } from '@js-joda/core'
import type { StaticDecode } from 'typebox'
import { auditedBy, invoiceNamed, requireRight, scopeOf, type Actor } from '../access/actor.ts'
import { insertAuditEntry } from '../audit/audit.store.ts'
import { localDateTime, today, toStoredInstant, type Clock } from '../core/clock.ts'
import { transaction } from '../db/database.ts'
import { invalidInput } from '../core/errors.ts'
import { findReason } from '../reasons/reasons.store.ts'
import { serializeListedLines } from './listed-lines.ts'
import {
  factorOf,
  lineAmountCents,
  lineQuantityText,
  lineUnits,
  returnedUnits,
  toMilliUnits,
} from '../shared/quantities.ts'
import type { RegisterReturnBody, ReturnView } from './returns.schemas.ts'
import {
  findHeldUnits,
  findInvoiceForReturn,
  findInvoiceLines,
  insertReturn,
  insertReturnLines,
  type InvoiceForReturn,
  type ReturnLineRow,
} from './returns.store.ts'
import { packageStateOf, requirePackageOpen } from './package.ts'
import { deadlineText, isWindowOpen } from './window.ts'
import { forgetListed, getReturn, timeOf, type ReturnsDeps } from './returns.service.ts'

/**
 * Registers a return (contract §4): an invoice (not annulled as a re-issue) of a manifest that is
 * not closed and whose returns window is open (under contract v2: whose package is not yet
 * published), an active reason, lines (none with a negative Total) named by NumeroLinea with
 * cajas and/or unidades that never take a line past its units (counting pending and approved
 * returns), amounts proportional to the line total in cents. With `aprobar` it is approved at
 * once. Audited; nothing is written on any violation.
 * @throws DomainError INVALID_INPUT (422) naming the line and the numbers, or the deadline.
 */
export function registerReturn(
  deps: ReturnsDeps,
  actor: Actor,
  input: StaticDecode<typeof RegisterReturnBody>,
): ReturnView {
  const { db, clock } = deps
  if (input.aprobar === true) requireRight(actor, 'decidir_devolucion')
  const fecha = input.fecha
  const view = transaction(db, () => {
    const scope = scopeOf(actor)
    const invoice = findInvoiceForReturn(db, input.factura, scope)
    if (!invoice) throw invalidInput(`No existe la factura ${input.factura}.`)
    requireDateWithin(fecha, invoice.fecha_factura, today(clock).toString())
    if (invoice.annulled_at !== null) {
      const original = invoiceNamed(
        { nfactura: invoice.reissue_of ?? '', almacen: invoice.reissue_of_almacen ?? '' },
        scope,
      )
      throw invalidInput(
        `La factura ${input.factura} fue anulada como re-emisión de ${original}: no admite devoluciones; regístrelas en esa factura.`,
      )
    }
    if (invoice.manifest_estado === 'closed') {
      throw invalidInput(
        `El manifiesto ${invoice.manifiesto} de la factura ${input.factura} está cerrado: no admite devoluciones.`,
      )
    }
    requirePackageOpen(
      packageStateOf(deps.contract, invoice.returns_deadline, clock.now(), clock.zone),
      invoice.manifiesto,
      'registrar la devolución',
    )
    requireWindowOpen(clock, invoice)
    const reason = findReason(db, input.concepto)
    if (!reason) throw invalidInput(`No existe el concepto ${input.concepto}.`)
    if (reason.activo !== 1)
      throw invalidInput(`El concepto ${input.concepto} está inactivo: no admite devoluciones nuevas.`)

    const lines = returnLines(input, findInvoiceLines(db, invoice.id), findHeldUnits(db, invoice.id))
    const listedLines = serializeListedLines(lines)
    const at = clock.now()
    const approved = input.aprobar === true
    const processed = localDateTime(clock, at)
    const returnId = insertReturn(db, {
      invoice_id: invoice.id,
      reason_codigo: reason.codigo,
      fecha,
      estado: approved ? 'approved' : 'pending',
      total_cents: lines.reduce((sum, line) => sum + line.amount_cents, 0),
      listed_lines: listedLines,
      listed_lines_units: serializeListedLines(lines, 'units'),
      registered_at: toStoredInstant(at),
      registered_date: processed.toLocalDate().toString(),
      registered_by: actor.nombre,
      processed_date: approved ? processed.toLocalDate().toString() : null,
      processed_time: approved ? timeOf(processed) : null,
      approved_by: approved ? actor.nombre : null,
      closed_at: null,
      closed_by: null,
      closing_note: null,
      invoice_date: invoice.fecha_factura,
    })
    insertReturnLines(
      db,
      lines.map((line) => ({ ...line, return_id: returnId })),
    )
    const registered = getReturn(deps, actor, String(returnId))
    insertAuditEntry(db, {
      at: toStoredInstant(at),
      ...auditedBy(actor),
      action: approved ? 'devolucion.registrada_y_aprobada' : 'devolucion.registrada',
      subjectType: 'devolucion',
      subjectId: String(returnId),
      after: JSON.stringify(registered),
    })
    return registered
  })
  forgetListed(deps, view.id)
  return view
}

/** The return lines to write, each checked against its invoice line and what is already held. */
function returnLines(
  input: StaticDecode<typeof RegisterReturnBody>,
  invoiceLines: ReturnType<typeof findInvoiceLines>,
  held: ReadonlyMap<number, number>,
): Array<Omit<ReturnLineRow, 'return_id'>> {
  const seen = new Set<number>()
  return input.lineas.map((requested, index) => {
    // Named by its NumeroLinea, as the invoice and the form show it; `linea` lets a form mark it.
    const label = `Línea ${requested.numeroLinea}`
    const refuse = (message: string) => invalidInput(message, { linea: requested.numeroLinea })
    if (seen.has(requested.numeroLinea)) throw refuse(`${label}: aparece dos veces en esta devolución.`)
    seen.add(requested.numeroLinea)
    const line = invoiceLines.find((candidate) => candidate.numero_linea === requested.numeroLinea)
    if (!line) {
      throw refuse(
        `${label}: la factura ${input.factura} no tiene esa línea (tiene ${invoiceLines.map((l) => l.numero_linea).join(', ')}).`,
      )
    }
    if (line.total < 0) {
      // A discount or bonus line: its share would be a negative amount, and a return never has a negative total.
      throw refuse(
        `${label}, ${line.producto_desc}: su Total en la factura es negativo (${line.total}: un descuento o una bonificación), y una devolución nunca tiene total negativo; esa línea no admite devoluciones.`,
      )
    }
    const factor = factorOf(line)
    const units = returnedUnits(factor, requested.cajas ?? 0, requested.unidades ?? 0)
    if (units <= 0) throw refuse(`${label}: indique cajas y/o unidades mayores que cero.`)
    const total = lineUnits(line)
    const already = held.get(line.numero_linea) ?? 0
    if (toMilliUnits(already) + toMilliUnits(units) > toMilliUnits(total)) {
      const counted = (value: number) => lineQuantityText(value, line.uni_venta, factor)
      throw refuse(
        `${label}, ${line.producto_desc}: se quieren devolver ${counted(units)}, pero la línea tiene ${counted(total)} y ya hay ${counted(already)} en devoluciones pendientes o aprobadas (disponibles: ${counted(total - already)}).`,
      )
    }
    return {
      numero_linea: line.numero_linea,
      producto_id: line.producto_id,
      producto_desc: line.producto_desc,
      uni_venta: line.uni_venta,
      factor_conversion: factor,
      units,
      amount_cents: lineAmountCents(line.total, units, total),
    }
  })
}

/**
 * A return is registered before its manifest's deadline (23:59:59 of the last day, Honduras);
 * the moment of registering counts, not the return's own `fecha`.
 */
function requireWindowOpen(clock: Clock, invoice: InvoiceForReturn): void {
  if (invoice.returns_deadline === null) return
  const lastDay = LocalDate.parse(invoice.returns_deadline)
  if (isWindowOpen(clock.now(), lastDay, clock.zone)) return
  throw invalidInput(
    `El plazo de devoluciones del manifiesto ${invoice.manifiesto} venció el ${deadlineText(lastDay)}: no admite devoluciones nuevas. Un supervisor puede ampliarlo.`,
  )
}

/** A return happens between its invoice's date and today (Honduras); any other date is a typo (422). */
function requireDateWithin(fecha: string, invoiceDate: string, todayDate: string): void {
  const day = fecha.slice(0, 10)
  if (day < invoiceDate)
    throw invalidInput(
      `fecha: ${day} es anterior a la fecha de la factura (${invoiceDate}); una devolución no puede ser anterior a su factura.`,
    )
  if (day > todayDate)
    throw invalidInput(
      `fecha: ${day} es posterior a hoy (${todayDate}); registre la devolución con la fecha en que se recibió.`,
    )
}
