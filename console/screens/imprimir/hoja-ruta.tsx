import { api } from '../../api/client.ts'
import type { ManifestPrint, PrintInvoice } from '../../api/types.ts'
import { count, dateTime, money, quantity } from '../../format.ts'
import { useLoad } from '../../ui/data.ts'
import { Amount, cents, PrintSheet, SheetHead, Signatures } from './hoja.tsx'

/**
 * Hoja de ruta (issue 42): the invoices of a manifest (or of one warehouse's part) grouped by
 * route in route order — client, address, invoice, total, boxes and loose units, a ✓ column for the
 * driver — with totals per route and for the sheet, and the signature lines. A long sheet runs
 * over pages with the table's header repeated on each.
 */
export function RouteSheetPrint({ numero, almacen }: { numero: string; almacen: string | undefined }) {
  const loaded = useLoad(() => api.printing.manifest(numero, almacen), [numero, almacen])
  const data = loaded.data
  return (
    <PrintSheet title={`Hoja de ruta · Manifiesto ${numero}`} ready={data !== undefined} error={loaded.error} wide>
      {data && <RouteSheet data={data} almacen={almacen} />}
    </PrintSheet>
  )
}

interface Route {
  ruta: string
  invoices: PrintInvoice[]
}

function routesOf(invoices: readonly PrintInvoice[]): Route[] {
  const routes: Route[] = []
  for (const invoice of invoices) {
    const last = routes[routes.length - 1]
    if (last !== undefined && last.ruta === invoice.ruta) last.invoices.push(invoice)
    else routes.push({ ruta: invoice.ruta, invoices: [invoice] })
  }
  return routes
}

function sums(invoices: readonly PrintInvoice[]): { cents: number; boxes: number; units: number } {
  return invoices.reduce(
    (sum, invoice) => ({
      cents: sum.cents + cents(invoice.total),
      boxes: sum.boxes + invoice.cajas,
      units: sum.units + invoice.unidades_sueltas,
    }),
    { cents: 0, boxes: 0, units: 0 },
  )
}

function address(invoice: PrintInvoice): string {
  const { Direccion, Barrio, Municipio } = invoice.encabezado
  return [Direccion ?? Barrio, Municipio].filter((part) => part !== null && part !== '').join(' · ')
}

function RouteSheet({ data, almacen }: { data: ManifestPrint; almacen: string | undefined }) {
  const delivered = data.facturas.filter((invoice) => !invoice.anulada)
  const routes = routesOf(delivered)
  const total = sums(delivered)
  let position = 0
  return (
    <>
      <SheetHead title="Hoja de ruta">
        Manifiesto {data.manifiesto} · ingresó el {dateTime(data.fecha_ingreso)} ·{' '}
        {almacen ? `almacén ${almacen}` : `almacenes ${data.almacenes.join(', ')}`} ·{' '}
        {count(delivered.length, 'factura')} en {count(routes.length, 'ruta')}
      </SheetHead>
      <table class="tabla-impresa hoja-de-ruta">
        <thead>
          <tr>
            <th scope="col" class="marca">
              ✓
            </th>
            <th scope="col" class="num">
              #
            </th>
            <th scope="col">Factura</th>
            <th scope="col">Cliente</th>
            <th scope="col">Dirección</th>
            <th scope="col" class="num">
              Cajas
            </th>
            <th scope="col" class="num">
              Unid.
            </th>
            <th scope="col" class="num">
              Total
            </th>
          </tr>
        </thead>
        {routes.map((route) => {
          const sum = sums(route.invoices)
          return (
            <tbody key={route.ruta} class="grupo">
              <tr class="titulo-grupo">
                <th scope="rowgroup" colSpan={8}>
                  Ruta {route.ruta === '' ? 'sin número' : route.ruta} · {count(route.invoices.length, 'factura')}
                </th>
              </tr>
              {route.invoices.map((invoice) => (
                <tr key={invoice.factura}>
                  <td class="marca">
                    <span class="casilla" />
                  </td>
                  <td class="num">{++position}</td>
                  <td class="factura">{invoice.factura}</td>
                  <td>
                    {invoice.encabezado.Cliente ?? '—'}
                    <span class="detalle"> · {invoice.encabezado.Clienteid}</span>
                  </td>
                  <td class="direccion">{address(invoice)}</td>
                  <td class="num">{quantity(invoice.cajas)}</td>
                  <td class="num">{quantity(invoice.unidades_sueltas)}</td>
                  <Amount value={invoice.total} />
                </tr>
              ))}
              <tr class="subtotal">
                <th scope="row" colSpan={5}>
                  Total de la ruta {route.ruta}
                </th>
                <td class="num">{quantity(sum.boxes)}</td>
                <td class="num">{quantity(sum.units)}</td>
                <td class="num">{money(sum.cents / 100)}</td>
              </tr>
            </tbody>
          )
        })}
        <tfoot>
          <tr class="total">
            <th scope="row" colSpan={5}>
              Total del manifiesto ({count(delivered.length, 'factura')})
            </th>
            <td class="num">{quantity(total.boxes)}</td>
            <td class="num">{quantity(total.units)}</td>
            <td class="num">{money(total.cents / 100)}</td>
          </tr>
        </tfoot>
      </table>
      <Signatures who={['Entrega (bodega)', 'Recibe (conductor)']} />
    </>
  )
}
