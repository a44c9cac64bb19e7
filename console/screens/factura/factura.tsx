import { useState } from 'preact/hooks'
import { Link, useSearch } from 'wouter-preact'
import { api } from '../../api/client.ts'
import type { InvoiceLine, InvoiceView } from '../../api/types.ts'
import { useNarrow } from '../../ui/screen.ts'
import {
  boxesAndUnits,
  date,
  dateTime,
  isBoxLine,
  MANIFEST_STATES,
  OTHER_WAREHOUSE_INVOICE,
  quantity,
  unitsText,
} from '../../format.ts'
import { canRegisterReturns, isSupervisor } from '../../session.ts'
import { BackLink, ErrorNote, Loading, Money, Notice, Page, StateTag } from '../../ui/components.tsx'
import { useLoad } from '../../ui/data.ts'
import { ReturnsTable } from '../devoluciones/tabla.tsx'
import { PrintLink, printAddress } from '../imprimir/enlaces.tsx'

/** Fields of the original invoice worth showing in the header when the supplier sent them. */
function originalField(original: unknown, ...names: string[]): string | null {
  if (original === null || typeof original !== 'object') return null
  const record = original as Record<string, unknown>
  for (const name of names) {
    const value = record[name]
    if (typeof value === 'string' && value.trim() !== '') return value.trim()
    if (typeof value === 'number') return String(value)
  }
  return null
}

/** Factura: header, lines with units sent / returned / available, its returns, a pending conflict, the original. */
/** The invoice this one was annulled as a copy of: its number, or otra factura de otro almacén. */
function originalName(reemision: InvoiceView['reemision']): string {
  if (reemision === null) return 'otra factura'
  return reemision.identica_a === null ? OTHER_WAREHOUSE_INVOICE : `la factura ${reemision.identica_a}`
}

export function InvoiceScreen({ nfactura }: { nfactura: string }) {
  const loaded = useLoad(() => api.invoices.get(nfactura), [nfactura])
  const invoice = loaded.data
  const registered = new URLSearchParams(useSearch()).get('registrada')
  return (
    <Page
      title={`Factura ${nfactura}`}
      subtitle={invoice ? `${invoice.cliente} · ${invoice.clienteid}` : undefined}
      actions={
        invoice && (
          <>
            <PrintLink href={printAddress.invoice(nfactura)} label="Imprimir factura" />
            {invoice.admite_devoluciones && canRegisterReturns.value && (
              <Link href={`/facturas/${encodeURIComponent(nfactura)}/devolver`} class="boton principal">
                Registrar devolución
              </Link>
            )}
          </>
        )
      }
    >
      {invoice && <BackLink href={`/manifiestos/${invoice.manifiesto}`}>Manifiesto {invoice.manifiesto}</BackLink>}
      <Notice text={registered ? `Devolución ${registered} registrada.` : null} />
      <ErrorNote error={loaded.error}>
        {loaded.error?.status === 404 && <> Revise el número; solo se ven las facturas de sus almacenes.</>}
      </ErrorNote>
      {loaded.loading && !invoice && <Loading what="la factura" />}
      {invoice && <InvoiceBody invoice={invoice} reload={loaded.reload} />}
    </Page>
  )
}

/** How a line is sold: `Caja de 60`, or the supplier's unit. */
function unitName(line: InvoiceLine): string {
  return line.uniVenta === 'CJ' ? `Caja de ${quantity(line.factorConversion)}` : (line.uniVenta ?? '—')
}

/**
 * A quantity of a line as the warehouse counts it: boxes and loose units on a box line (`8 cajas +
 * 55 unid.`, with the units total beside it), units otherwise.
 */
export function LineQuantity({
  units,
  line,
}: {
  units: number
  line: Pick<InvoiceLine, 'uniVenta' | 'factorConversion'>
}) {
  // Less than a box is said in units alone.
  if (!isBoxLine(line.uniVenta, line.factorConversion) || units < line.factorConversion) return <>{unitsText(units)}</>
  return (
    <>
      {boxesAndUnits(units, line.factorConversion)} <span class="detalle">{unitsText(units)}</span>
    </>
  )
}

function InvoiceBody({ invoice, reload }: { invoice: InvoiceView; reload: () => void }) {
  const [showOriginal, setShowOriginal] = useState(false)
  const narrow = useNarrow()
  const route = originalField(invoice.original, 'NumeroRuta', 'Ruta')
  const seller = originalField(invoice.original, 'Vendedor', 'NombreVendedor', 'VendedorId')
  const address = originalField(invoice.original, 'Direccion', 'DireccionCliente')
  return (
    <>
      {!invoice.admite_devoluciones && (
        <p class="aviso" role="note">
          {invoice.anulada
            ? `Esta factura se anuló como re-emisión de ${originalName(invoice.reemision)}: no admite devoluciones; regístrelas en la original.`
            : invoice.manifiesto_estado === 'closed'
              ? `El manifiesto ${invoice.manifiesto} está cerrado: no admite devoluciones. Un supervisor puede reabrirlo.`
              : `Venció el plazo de devoluciones del manifiesto ${invoice.manifiesto} (${dateTime(invoice.plazo_devoluciones)}). Un supervisor puede ampliarlo.`}
        </p>
      )}
      {invoice.conflicto_pendiente && (
        <p class="aviso" role="note">
          El proveedor envió otra versión de esta factura el {dateTime(invoice.conflicto_pendiente.recibido_en)} con
          cambios en: {invoice.conflicto_pendiente.campos_con_cambio.join(', ')}.{' '}
          {isSupervisor.value ? (
            <Link href="/conflictos">Decídalo en Conflictos.</Link>
          ) : (
            'Un supervisor debe decidirla.'
          )}
        </p>
      )}
      <dl class="resumen">
        <div>
          <dt>Cliente</dt>
          <dd>
            {invoice.cliente} <span class="detalle">{invoice.clienteid}</span>
          </dd>
        </div>
        {address && (
          <div>
            <dt>Dirección</dt>
            <dd>{address}</dd>
          </div>
        )}
        {route && (
          <div>
            <dt>Ruta</dt>
            <dd>{route}</dd>
          </div>
        )}
        {seller && (
          <div>
            <dt>Vendedor</dt>
            <dd>{seller}</dd>
          </div>
        )}
        <div>
          <dt>Almacén</dt>
          <dd>{invoice.almacen}</dd>
        </div>
        <div>
          <dt>Fecha de factura</dt>
          <dd>{date(invoice.fecha_factura)}</dd>
        </div>
        <div>
          <dt>Manifiesto</dt>
          <dd>
            <Link href={`/manifiestos/${invoice.manifiesto}`}>{invoice.manifiesto}</Link>{' '}
            <StateTag
              state={invoice.manifiesto_estado}
              label={MANIFEST_STATES[invoice.manifiesto_estado as 'imported' | 'closed'] ?? invoice.manifiesto_estado}
            />
          </dd>
        </div>
        <div>
          <dt>Recibida</dt>
          <dd>{dateTime(invoice.recibida_en)}</dd>
        </div>
        <div>
          <dt>Total</dt>
          <dd>
            <Money amount={invoice.total} />
          </dd>
        </div>
      </dl>
      <section aria-labelledby="lineas-factura">
        <h2 id="lineas-factura">Líneas</h2>
        <table class="lineas-factura">
          <thead>
            <tr>
              <th scope="col" class="num">
                Línea
              </th>
              <th scope="col">Producto</th>
              {!narrow && <th scope="col">Unidad</th>}
              <th scope="col" class="num">
                Enviadas
              </th>
              <th scope="col" class="num">
                Devueltas (pendientes y aprobadas)
              </th>
              <th scope="col" class="num">
                Disponibles
              </th>
              <th scope="col" class="num">
                Total
              </th>
            </tr>
          </thead>
          <tbody>
            {invoice.lineas.map((line) => (
              <tr key={line.numeroLinea}>
                <td class="num">{line.numeroLinea}</td>
                <td>
                  {line.producto}{' '}
                  <span class="detalle">
                    {line.productoId}
                    {narrow ? ` · ${unitName(line)}` : ''}
                  </span>
                </td>
                {!narrow && <td>{unitName(line)}</td>}
                <td class="num">
                  <LineQuantity units={line.unidades} line={line} />
                </td>
                <td class="num">
                  <LineQuantity units={line.devueltas} line={line} />
                </td>
                <td class="num">
                  <LineQuantity units={line.disponibles} line={line} />
                </td>
                <td class="num">
                  <Money amount={line.total} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      <section aria-labelledby="devoluciones-factura">
        <h2 id="devoluciones-factura">Devoluciones de esta factura</h2>
        <ReturnsTable
          returns={invoice.devoluciones}
          onChanged={reload}
          showInvoice={false}
          empty="Esta factura no tiene devoluciones."
        />
      </section>
      <section aria-labelledby="original-factura">
        <h2 id="original-factura">
          <button
            type="button"
            class="enlace"
            aria-expanded={showOriginal}
            onClick={() => setShowOriginal(!showOriginal)}
          >
            {showOriginal ? '▾' : '▸'} Factura original, tal como la envió el proveedor
          </button>
        </h2>
        {showOriginal && <pre class="original">{JSON.stringify(invoice.original, null, 2)}</pre>}
      </section>
    </>
  )
}
