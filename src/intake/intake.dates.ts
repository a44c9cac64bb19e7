import { ChronoUnit, LocalDate, type ZoneId } from '@js-joda/core'
import { invoiceDate } from '../invoices/invoice-date.ts'
import type { ReceivedInvoice } from '../invoices/received-invoice.ts'

export type DateRejection =
  'FECHAS_MEZCLADAS' | 'FECHA_FACTURA_INVALIDA' | 'FECHA_FACTURA_FUTURA' | 'FECHA_FACTURA_DEMASIADO_ANTIGUA'

export interface DateRules {
  today: LocalDate
  maxAgeDays: number
  strictMixedDates: boolean
}

export interface ManifestDateVerdict {
  motivo: DateRejection
  detalle: Record<string, unknown>
}

/** The date of every invoice, each distinct FechaFactura text read once. */
export function invoiceDates(
  invoices: readonly ReceivedInvoice[],
  zone: ZoneId,
): Map<ReceivedInvoice, LocalDate | null> {
  const byText = new Map<string | number, LocalDate | null>()
  const dates = new Map<ReceivedInvoice, LocalDate | null>()
  for (const invoice of invoices) {
    let date = byText.get(invoice.fechaFactura)
    if (date === undefined) {
      date = invoiceDate(invoice.fechaFactura, zone)
      byText.set(invoice.fechaFactura, date)
    }
    dates.set(invoice, date)
  }
  return dates
}

/**
 * Step 4 for one manifest: the first broken rule in the contract's precedence (FECHAS_MEZCLADAS
 * in strict mode, then INVALIDA, FUTURA, DEMASIADO_ANTIGUA), with every invoice that breaks it.
 * Returns null when every date is acceptable.
 */
export function checkManifestDates(
  invoices: readonly ReceivedInvoice[],
  dateOf: ReadonlyMap<ReceivedInvoice, LocalDate | null>,
  rules: DateRules,
): ManifestDateVerdict | null {
  const dates = new Map<ReceivedInvoice, LocalDate | null>()
  for (const invoice of invoices) dates.set(invoice, dateOf.get(invoice) ?? null)

  if (rules.strictMixedDates) {
    const byDate = new Map<string, string[]>()
    for (const [invoice, date] of dates) {
      if (date === null) continue // unreadable is INVALIDA, not a mix
      const key = date.toString()
      const numbers = byDate.get(key)
      if (numbers) numbers.push(invoice.nfactura)
      else byDate.set(key, [invoice.nfactura])
    }
    if (byDate.size > 1) {
      const fechas = [...byDate.keys()].sort()
      return {
        motivo: 'FECHAS_MEZCLADAS',
        detalle: {
          instruccion:
            'Modo estricto: todas las facturas de un manifiesto deben tener la misma FechaFactura. Separe las facturas por fecha en manifiestos distintos y reenvíe el lote.',
          fechas_encontradas: fechas,
          facturas_por_fecha: keyed(fechas.map((fecha) => [fecha, byDate.get(fecha)!])),
        },
      }
    }
  }

  const invalid = [...dates].filter(([, date]) => date === null).map(([invoice]) => invoice.nfactura)
  if (invalid.length > 0) {
    return {
      motivo: 'FECHA_FACTURA_INVALIDA',
      detalle: {
        instruccion:
          'FechaFactura debe ser una fecha real en uno de estos formatos: YYYY-MM-DDT00:00:00.000Z, YYYY-MM-DD, dd/MM/yyyy u otra fecha-hora ISO 8601. Corríjala y reenvíe el lote.',
        facturas_afectadas: invalid,
      },
    }
  }

  const valid = [...dates] as Array<[ReceivedInvoice, LocalDate]>
  const future = valid.filter(([, date]) => date.isAfter(rules.today))
  if (future.length > 0) {
    return {
      motivo: 'FECHA_FACTURA_FUTURA',
      detalle: {
        instruccion: `FechaFactura no puede ser posterior a hoy (${rules.today}, hora de Honduras). Corrija la fecha y reenvíe el lote.`,
        facturas_futuras: keyed(future.map(([invoice, date]) => [invoice.nfactura, date.toString()])),
        hoy_servidor: rules.today.toString(),
      },
    }
  }

  // More than maxAgeDays days old is before this date; only those are counted in days.
  const oldest = rules.today.minusDays(rules.maxAgeDays)
  const old = valid
    .filter(([, date]) => date.isBefore(oldest))
    .map(([invoice, date]) => [invoice, date, date.until(rules.today, ChronoUnit.DAYS)] as const)
  if (old.length > 0) {
    return {
      motivo: 'FECHA_FACTURA_DEMASIADO_ANTIGUA',
      detalle: {
        instruccion: `FechaFactura no puede tener más de ${rules.maxAgeDays} días de antigüedad. Esas facturas no pueden ingresarse por esta interfaz; reenvíe el lote sin ellas.`,
        facturas_antiguas: keyed(
          old.map(([invoice, date, days]) => [invoice.nfactura, { fecha: date.toString(), dias: days }]),
        ),
        hoy_servidor: rules.today.toString(),
        limite_dias: rules.maxAgeDays,
      },
    }
  }
  return null
}

/** An object keyed by client text (Nfactura, dates): no prototype, so `__proto__` is just a key. */
function keyed(entries: Iterable<readonly [string, unknown]>): Record<string, unknown> {
  const object = Object.create(null) as Record<string, unknown>
  for (const [key, value] of entries) object[key] = value
  return object
}
