import { Fragment } from 'preact'
import { useEffect, useRef, useState } from 'preact/hooks'
import { useLocation } from 'wouter-preact'
import { lineAmountCents, returnedUnits, toMilliUnits } from '../../../src/shared/quantities.ts'
import { api, type ApiError } from '../../api/client.ts'
import type { InvoiceLine, InvoiceView, Reason } from '../../api/types.ts'
import { date, lineQuantityText, money, quantity } from '../../format.ts'
import { LineQuantity } from './factura.tsx'
import { isSupervisor, serverToday } from '../../session.ts'
import { BackLink, ErrorNote, Loading, Page } from '../../ui/components.tsx'
import { DateField, Field } from '../../ui/fields.tsx'
import { asApiError, useLoad } from '../../ui/data.ts'

interface Entry {
  cajas: string
  unidades: string
}

/** Units per box of a line, as the service counts them (a line without a usable factor counts 1). */
function factorOf(line: InvoiceLine): number {
  return Number.isSafeInteger(line.factorConversion) && line.factorConversion > 0 ? line.factorConversion : 1
}

function whole(text: string): number {
  const value = Number(text)
  return text.trim() === '' || !Number.isFinite(value) ? 0 : value
}

/** What a line's entry returns: its units and amount in cents, exactly as the service computes them. */
export function entryAmount(line: InvoiceLine, entry: Entry): { units: number; cents: number } {
  const units = returnedUnits(factorOf(line), whole(entry.cajas), whole(entry.unidades))
  return { units, cents: units > 0 && line.unidades > 0 ? lineAmountCents(line.total, units, line.unidades) : 0 }
}

/** "Devolver todo" of a line: whole boxes first on box lines, the rest as units. */
/** Units left, and not a discount line: the service refuses a return on a line whose Total is negative. */
function isReturnable(line: InvoiceLine): boolean {
  return line.disponibles > 0 && line.total >= 0
}

function allOf(line: InvoiceLine): Entry {
  const factor = factorOf(line)
  if (line.uniVenta === 'CJ' && factor > 1) {
    const boxes = Math.floor(toMilliUnits(line.disponibles) / toMilliUnits(factor))
    const rest = line.disponibles - boxes * factor
    return { cajas: boxes > 0 ? String(boxes) : '', unidades: rest > 0 ? String(rest) : '' }
  }
  return { cajas: '', unidades: line.disponibles > 0 ? String(line.disponibles) : '' }
}

/** The line a refusal names (the answer's `linea`), or null for a refusal of the whole return. */
export function lineOfRefusal(failure: ApiError): number | null {
  const line = failure.body?.linea
  return typeof line === 'number' ? line : null
}

/** Registrar devolución: every line of the invoice with boxes and units, live amounts, one concepto and date. */
export function RegisterReturnScreen({ nfactura }: { nfactura: string }) {
  const loaded = useLoad(() => Promise.all([api.invoices.get(nfactura), api.reasons.list()]), [nfactura])
  return (
    <Page
      title={`Registrar devolución · Factura ${nfactura}`}
      subtitle={loaded.data ? `${loaded.data[0].cliente} · ${loaded.data[0].clienteid}` : undefined}
    >
      <BackLink href={`/facturas/${encodeURIComponent(nfactura)}`}>Factura {nfactura}</BackLink>
      <ErrorNote error={loaded.error} />
      {loaded.loading && !loaded.data && <Loading what="la factura" />}
      {loaded.data && (
        <ReturnForm invoice={loaded.data[0]} reasons={loaded.data[1].filter((reason) => reason.activo)} />
      )}
    </Page>
  )
}

function ReturnForm({ invoice, reasons }: { invoice: InvoiceView; reasons: Reason[] }) {
  const [, navigate] = useLocation()
  const [entries, setEntries] = useState<Record<number, Entry>>({})
  const [concepto, setConcepto] = useState(reasons.length === 1 ? reasons[0]!.codigo : '')
  const today = serverToday.value
  const [fecha, setFecha] = useState(today < invoice.fecha_factura ? invoice.fecha_factura : today)
  const [approve, setApprove] = useState(false)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<{ failure: ApiError; line: number | null } | null>(null)
  const formRef = useRef<HTMLFormElement>(null)
  const supervisor = isSupervisor.value

  useEffect(() => {
    if (error?.line != null) formRef.current?.querySelector<HTMLInputElement>(`[data-linea="${error.line}"]`)?.focus()
  }, [error])

  if (!invoice.admite_devoluciones) {
    return (
      <p class="aviso" role="alert">
        Esta factura no admite devoluciones ahora (manifiesto cerrado, plazo vencido o factura anulada). Vea el detalle
        en la factura.
      </p>
    )
  }
  if (reasons.length === 0) {
    return (
      <p class="aviso" role="alert">
        No hay conceptos de devolución activos. Un supervisor debe crear o activar uno en Conceptos antes de registrar
        devoluciones.
      </p>
    )
  }

  const entryOf = (line: InvoiceLine): Entry => entries[line.numeroLinea] ?? { cajas: '', unidades: '' }
  const set = (line: InvoiceLine, change: Partial<Entry>) =>
    setEntries((previous) => ({
      ...previous,
      [line.numeroLinea]: { ...(previous[line.numeroLinea] ?? { cajas: '', unidades: '' }), ...change },
    }))
  const amounts = invoice.lineas.map((line) => ({ line, ...entryAmount(line, entryOf(line)) }))
  const chosen = amounts.filter((amount) => amount.units > 0)
  const totalCents = chosen.reduce((sum, amount) => sum + amount.cents, 0)

  const returnAll = () => {
    const next: Record<number, Entry> = {}
    for (const line of invoice.lineas) if (isReturnable(line)) next[line.numeroLinea] = allOf(line)
    setEntries(next)
  }

  const submit = async (event: Event) => {
    event.preventDefault()
    if (chosen.length === 0) {
      setError({ failure: { message: 'Indique cajas o unidades en al menos una línea.' } as ApiError, line: null })
      return
    }
    if (concepto === '') {
      setError({ failure: { message: 'Elija el concepto de la devolución.' } as ApiError, line: null })
      return
    }
    const unwhole = invoice.lineas.find((line) =>
      [entryOf(line).cajas, entryOf(line).unidades].some((text) => text.trim() !== '' && !/^[0-9]+$/.test(text.trim())),
    )
    if (unwhole) {
      setError({
        failure: {
          message: `Línea ${unwhole.numeroLinea}, ${unwhole.producto}: escriba cajas y unidades como números enteros, sin signos ni decimales.`,
        } as ApiError,
        line: unwhole.numeroLinea,
      })
      return
    }
    if (fecha === '') {
      setError({ failure: { message: 'Escriba la fecha de la devolución, como 22/11/2026.' } as ApiError, line: null })
      return
    }
    setBusy(true)
    setError(null)
    try {
      const created = await api.returns.register({
        factura: invoice.factura,
        concepto,
        fecha,
        lineas: chosen.map(({ line }) => {
          const entry = entryOf(line)
          return {
            numeroLinea: line.numeroLinea,
            ...(whole(entry.cajas) > 0 ? { cajas: whole(entry.cajas) } : {}),
            ...(whole(entry.unidades) > 0 ? { unidades: whole(entry.unidades) } : {}),
          }
        }),
        ...(approve ? { aprobar: true } : {}),
      })
      navigate(`/facturas/${encodeURIComponent(invoice.factura)}?registrada=${created.id}`)
    } catch (failure) {
      const apiError = asApiError(failure)
      setError({ failure: apiError, line: lineOfRefusal(apiError) })
      setBusy(false)
    }
  }

  return (
    <form ref={formRef} onSubmit={submit} class="formulario-devolucion" aria-label="Registrar devolución" noValidate>
      <div class="filtros">
        <Field label="Concepto">
          {(id) => (
            <select id={id} required value={concepto} onChange={(event) => setConcepto(event.currentTarget.value)}>
              <option value="">Elija el concepto…</option>
              {reasons.map((reason) => (
                <option key={reason.codigo} value={reason.codigo}>
                  {reason.descripcion} ({reason.codigo})
                </option>
              ))}
            </select>
          )}
        </Field>
        <DateField
          label="Fecha de la devolución"
          hint={`dd/mm/aaaa, entre ${date(invoice.fecha_factura)} y hoy`}
          min={invoice.fecha_factura}
          max={today}
          value={fecha}
          onChange={setFecha}
        />
        <div class="campo">
          <span class="etiqueta-vacia" aria-hidden="true">
            &nbsp;
          </span>
          <button type="button" onClick={returnAll}>
            Devolver toda la factura
          </button>
        </div>
      </div>
      {error && error.line === null && <ErrorNote error={error.failure} />}
      <table class="lineas-devolucion">
        <thead>
          <tr>
            <th scope="col" class="num">
              Línea
            </th>
            <th scope="col" id="col-producto">
              Producto
            </th>
            <th scope="col" class="num">
              Disponibles
            </th>
            <th scope="col" id="col-cajas" class="num">
              Cajas
            </th>
            <th scope="col" id="col-unidades" class="num">
              Unidades
            </th>
            <th scope="col" class="num">
              Importe
            </th>
            <th scope="col">
              <span class="oculto">Acción de la línea</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {amounts.map(({ line, units, cents }) => {
            const entry = entryOf(line)
            const factor = factorOf(line)
            const over = toMilliUnits(units) > toMilliUnits(line.disponibles)
            const lineError = error?.line === line.numeroLinea ? error.failure.message : null
            const productId = `producto-${line.numeroLinea}`
            const problemId = `problema-${line.numeroLinea}`
            return (
              <Fragment key={line.numeroLinea}>
                <tr class={lineError || over ? 'con-error' : units > 0 ? 'elegida' : undefined}>
                  <td class="num">{line.numeroLinea}</td>
                  <td id={productId}>
                    {line.producto}
                    <span class="detalle">
                      {' '}
                      {line.productoId} ·{' '}
                      {line.uniVenta === 'CJ' ? `caja de ${quantity(factor)}` : (line.uniVenta ?? 'unidad')}
                      {line.total < 0 && ' · descuento (total negativo): no admite devoluciones'}
                    </span>
                  </td>
                  <td class="num">
                    <LineQuantity units={line.disponibles} line={line} />
                  </td>
                  <td class="num">
                    <input
                      type="number"
                      inputMode="numeric"
                      min={0}
                      step={1}
                      data-linea={line.numeroLinea}
                      aria-labelledby={`col-cajas ${productId}`}
                      aria-invalid={lineError !== null || over}
                      aria-describedby={lineError || over ? problemId : undefined}
                      disabled={!isReturnable(line)}
                      value={entry.cajas}
                      onInput={(event) => set(line, { cajas: event.currentTarget.value })}
                    />
                  </td>
                  <td class="num">
                    <input
                      type="number"
                      inputMode="numeric"
                      min={0}
                      step={1}
                      aria-labelledby={`col-unidades ${productId}`}
                      aria-invalid={lineError !== null || over}
                      aria-describedby={lineError || over ? problemId : undefined}
                      disabled={!isReturnable(line)}
                      value={entry.unidades}
                      onInput={(event) => set(line, { unidades: event.currentTarget.value })}
                    />
                  </td>
                  <td class="num">{units > 0 ? money(cents / 100) : '—'}</td>
                  <td>
                    <button
                      type="button"
                      aria-describedby={productId}
                      disabled={!isReturnable(line)}
                      onClick={() => set(line, allOf(line))}
                    >
                      Devolver todo
                    </button>
                  </td>
                </tr>
                {(lineError || over) && (
                  <tr class="fila-problema">
                    <td colSpan={7} id={problemId} role="alert">
                      {lineError ??
                        `Son ${lineQuantityText(units, line.uniVenta, factor)} y solo hay ${lineQuantityText(line.disponibles, line.uniVenta, factor)} disponibles en esta línea.`}
                    </td>
                  </tr>
                )}
              </Fragment>
            )
          })}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row" colSpan={5} class="num">
              Total de la devolución
            </th>
            <td class="num total" aria-live="polite">
              {money(totalCents / 100)}
            </td>
            <td />
          </tr>
        </tfoot>
      </table>
      <div class="botones">
        {supervisor && (
          <label class="casilla">
            <input type="checkbox" checked={approve} onChange={(event) => setApprove(event.currentTarget.checked)} />{' '}
            Aprobar al registrar
          </label>
        )}
        <button type="submit" class="principal" disabled={busy} aria-busy={busy}>
          {busy ? 'Registrando…' : approve ? 'Registrar y aprobar' : 'Registrar devolución'}
        </button>
      </div>
    </form>
  )
}
