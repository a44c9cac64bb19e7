import { useEffect, useRef, useState } from 'preact/hooks'
import { api } from '../../api/client.ts'
import type { PrintInvoice } from '../../api/types.ts'
import { date, money, quantity } from '../../format.ts'
import { amountInWords } from '../../../src/shared/amount-in-words.ts'
import { useLoad } from '../../ui/data.ts'
import { Amount, cents, PrintSheet } from './hoja.tsx'

/**
 * Facturas (issue 42): one invoice, or all of a manifest (or of one warehouse's part) in route
 * order, one per page, as the supplier issued them — its fields come from what the supplier sent.
 * Printing marks them as printed; an invoice printed before says COPIA.
 */
export function ManifestInvoicesPrint({ numero, almacen }: { numero: string; almacen: string | undefined }) {
  const loaded = useLoad(
    () => api.printing.manifest(numero, almacen).then((data) => data.facturas.filter((invoice) => !invoice.anulada)),
    [numero, almacen],
  )
  return <InvoicesPrint title={`Facturas · Manifiesto ${numero}`} invoices={loaded.data} error={loaded.error} />
}

export function InvoicePrint({ nfactura }: { nfactura: string }) {
  const loaded = useLoad(() => api.printing.invoice(nfactura).then((invoice) => [invoice]), [nfactura])
  return <InvoicesPrint title={`Factura ${nfactura}`} invoices={loaded.data} error={loaded.error} />
}

function InvoicesPrint({
  title,
  invoices,
  error,
}: {
  title: string
  invoices: PrintInvoice[] | undefined
  error: Parameters<typeof PrintSheet>[0]['error']
}) {
  // Which of them the sheet shows as copies: printed before (as loaded), then as the mark answers.
  const [copies, setCopies] = useState<ReadonlySet<string>>(new Set())
  // Marked from this page already (by the button or a print command): a second print command in
  // the same page is not recorded again (a browser can fire beforeprint more than once per print).
  const marked = useRef(false)
  useEffect(() => {
    if (invoices)
      setCopies(new Set(invoices.filter((invoice) => invoice.impresa !== null).map((invoice) => invoice.factura)))
  }, [invoices])
  const mark = async () => {
    if (!invoices || invoices.length === 0) return
    const answer = await api.printing.mark(invoices.map((invoice) => invoice.factura))
    setCopies(new Set(answer.impresas.filter((entry) => entry.copia).map((entry) => entry.factura)))
  }
  useEffect(() => {
    // Printed with the browser's own command (Ctrl+P), not the button: recorded all the same.
    const before = () => {
      if (marked.current) return
      marked.current = true
      void mark().catch(() => undefined)
    }
    // Once on paper, every one of them is a copy from now on.
    const after = () => invoices && setCopies(new Set(invoices.map((invoice) => invoice.factura)))
    window.addEventListener('beforeprint', before)
    window.addEventListener('afterprint', after)
    return () => {
      window.removeEventListener('beforeprint', before)
      window.removeEventListener('afterprint', after)
    }
  })
  const beforePrint = async () => {
    marked.current = true
    await mark()
  }
  return (
    <PrintSheet title={title} ready={invoices !== undefined} error={error} beforePrint={beforePrint}>
      {invoices?.length === 0 && <p class="vacio">El manifiesto no tiene facturas que entregar.</p>}
      {invoices?.map((invoice) => (
        <InvoicePaper key={invoice.factura} invoice={invoice} copy={copies.has(invoice.factura)} />
      ))}
    </PrintSheet>
  )
}

function text(value: string | null): string {
  return value ?? ''
}

/** One invoice on its own page: issuer, CAI and range, client, lines, the totals as sent and in words. */
export function InvoicePaper({ invoice, copy }: { invoice: PrintInvoice; copy: boolean }) {
  const head = invoice.encabezado
  const amounts = invoice.importes
  const total = amounts.Total ?? invoice.total
  const taxed = taxedBases(invoice)
  return (
    <article class="factura-impresa" aria-label={`Factura ${invoice.factura}`}>
      <header class="emisor">
        <div>
          <p class="casa-matriz">{text(head.DirCasaMatriz)}</p>
          {head.DirSucursal && <p>Sucursal: {head.DirSucursal}</p>}
          <p>
            CAI: <strong>{text(head.Cai)}</strong>
          </p>
          <p>
            Rango autorizado: {text(head.Rinicial)} al {text(head.Rfinal)}
          </p>
          <p>Fecha límite de emisión: {date(head.FechaLimImpre)}</p>
        </div>
        <div class="numero-factura">
          <p class="tipo">{copy ? 'COPIA' : 'ORIGINAL'}</p>
          <h2>FACTURA</h2>
          <p class="nfactura">{invoice.factura}</p>
          <p>Fecha: {date(head.FechaFactura)}</p>
          {head.FechaVencimiento && <p>Vence: {date(head.FechaVencimiento)}</p>}
        </div>
      </header>
      <dl class="datos-cliente">
        <div>
          <dt>Cliente</dt>
          <dd>
            {text(head.Cliente)} ({text(head.Clienteid)})
          </dd>
        </div>
        <div>
          <dt>RTN</dt>
          <dd>{text(head.Rtn)}</dd>
        </div>
        <div>
          <dt>Entregar a</dt>
          <dd>{text(head.EntregarA ?? head.Cliente)}</dd>
        </div>
        <div>
          <dt>Dirección</dt>
          <dd>{[head.Direccion ?? head.Barrio, head.Municipio, head.Depto].filter(Boolean).join(', ')}</dd>
        </div>
        <div>
          <dt>Teléfono</dt>
          <dd>{text(head.Tel)}</dd>
        </div>
        <div>
          <dt>Vendedor</dt>
          <dd>
            {text(head.Vendedor)} ({text(head.Vendedorid)})
          </dd>
        </div>
        <div>
          <dt>Ruta</dt>
          <dd>{invoice.ruta}</dd>
        </div>
        <div>
          <dt>Manifiesto</dt>
          <dd>
            {invoice.manifiesto} · almacén {invoice.almacen}
          </dd>
        </div>
        <div>
          <dt>Pedido</dt>
          <dd>{text(head.NumeroPedido)}</dd>
        </div>
        <div>
          <dt>Pago</dt>
          <dd>
            {[head.TipoPago, head.DiasCred === null ? null : `${head.DiasCred} días`].filter(Boolean).join(' · ')}
          </dd>
        </div>
        {head.OrdenEx && (
          <div>
            <dt>Orden de compra exenta</dt>
            <dd>{head.OrdenEx}</dd>
          </div>
        )}
        {head.RegExonerado && (
          <div>
            <dt>Registro exonerado</dt>
            <dd>{head.RegExonerado}</dd>
          </div>
        )}
        {head.RegSag && (
          <div>
            <dt>Registro SAG</dt>
            <dd>{head.RegSag}</dd>
          </div>
        )}
      </dl>
      <table class="tabla-impresa lineas-factura">
        <thead>
          <tr>
            <th scope="col">Código</th>
            <th scope="col">Producto</th>
            <th scope="col">Cantidad</th>
            <th scope="col" class="num">
              Precio
            </th>
            <th scope="col" class="num">
              Descuento
            </th>
            <th scope="col" class="num">
              ISV
            </th>
            <th scope="col" class="num">
              Total
            </th>
          </tr>
        </thead>
        <tbody>
          {invoice.lineas.map((line, index) => (
            <tr key={index}>
              <td>{text(line.ProductoId)}</td>
              <td>{text(line.ProductoDesc)}</td>
              <td class="cantidad">{line.cantidad}</td>
              <Amount value={line.Precio} />
              <Amount value={line.Descuento} />
              <Amount
                value={
                  line.Impuesto === null && line.Impuesto18 === null
                    ? null
                    : (cents(line.Impuesto ?? 0) + cents(line.Impuesto18 ?? 0)) / 100
                }
              />
              <Amount value={line.Total} />
            </tr>
          ))}
        </tbody>
      </table>
      <div class="pie-factura">
        <div class="en-letras">
          <p>
            <strong>Son:</strong> {amountInWords(Math.max(0, cents(total)))}
          </p>
          <p class="bultos">
            {quantity(invoice.cajas)} cajas y {quantity(invoice.unidades_sueltas)} unidades sueltas en{' '}
            {invoice.lineas.length} líneas
          </p>
          <div class="recibido">
            <span class="linea-firma" />
            Recibí conforme: nombre, identidad y firma
          </div>
        </div>
        <table class="importes">
          <tbody>
            <Row label="Importe exento" value={amounts.ImporteExento_Total ?? amounts.ImporteExcento} />
            <Row label="Importe exonerado" value={amounts.ImporteExonerado_Total ?? amounts.ImporteExonerado} />
            <Row label="Importe gravado 15 %" value={taxed.at15} />
            <Row label="Importe gravado 18 %" value={taxed.at18} />
            <Row label="Descuentos y rebajas" value={amounts.DescuentosRebajas} />
            <Row label="ISV 15 %" value={amounts.Isv15} />
            <Row label="ISV 18 %" value={amounts.Isv18} />
            <tr class="total">
              <th scope="row">Total a pagar</th>
              <td class="num">{money(total)}</td>
            </tr>
          </tbody>
        </table>
      </div>
    </article>
  )
}

function Row({ label, value }: { label: string; value: number | null }) {
  return (
    <tr>
      <th scope="row">{label}</th>
      <Amount value={value ?? 0} />
    </tr>
  )
}

/**
 * The taxed amounts at 15 % and 18 %: the supplier sends one taxed amount (ImporteGrabado), so it
 * is split by its lines' rate (PorcentajeImpuesto), each line's Subtotal as sent; when no line
 * says its rate, the whole amount is at 15 %, the general rate.
 */
export function taxedBases(invoice: PrintInvoice): { at15: number; at18: number } {
  let at15 = 0
  let at18 = 0
  for (const line of invoice.lineas) {
    if (line.PorcentajeImpuesto === 15) at15 += cents(line.Subtotal ?? 0)
    if (line.PorcentajeImpuesto === 18) at18 += cents(line.Subtotal ?? 0)
  }
  if (at15 === 0 && at18 === 0) return { at15: invoice.importes.ImporteGrabado ?? 0, at18: 0 }
  return { at15: at15 / 100, at18: at18 / 100 }
}
