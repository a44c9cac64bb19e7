import { api } from '../../api/client.ts'
import type { ProductReport } from '../../api/types.ts'
import { count, date, quantity } from '../../format.ts'
import { useLoad } from '../../ui/data.ts'
import { Amount, PrintSheet, SheetHead } from './hoja.tsx'

/** Productos (issue 42): of a manifest or of the manifests received in a date range; one row per product. */
export function ProductsPrint({
  manifiesto,
  desde,
  hasta,
  almacen,
}: {
  manifiesto?: string
  desde?: string
  hasta?: string
  almacen?: string
}) {
  const loaded = useLoad(
    () => api.printing.products({ manifiesto, desde, hasta, almacen }),
    [manifiesto, desde, hasta, almacen],
  )
  return (
    <PrintSheet
      title={manifiesto ? `Productos · Manifiesto ${manifiesto}` : 'Productos'}
      ready={loaded.data !== undefined}
      error={loaded.error}
    >
      {loaded.data && <ProductsSheet report={loaded.data} />}
    </PrintSheet>
  )
}

function ProductsSheet({ report }: { report: ProductReport }) {
  const covers = report.manifiesto
    ? `Manifiesto ${report.manifiesto}`
    : `Manifiestos ingresados del ${date(report.desde)} al ${date(report.hasta)}`
  return (
    <>
      <SheetHead title="Productos">
        {covers}
        {report.almacen ? ` · almacén ${report.almacen}` : ''} · {count(report.totales.facturas, 'factura')} ·{' '}
        {count(report.productos.length, 'producto')}
      </SheetHead>
      <table class="tabla-impresa">
        <thead>
          <tr>
            <th scope="col">Código</th>
            <th scope="col">Producto</th>
            <th scope="col">Unidad</th>
            <th scope="col">Cajas y unidades</th>
            <th scope="col" class="num">
              Unidades
            </th>
            <th scope="col" class="num">
              Facturas
            </th>
            <th scope="col" class="num">
              Importe
            </th>
          </tr>
        </thead>
        <tbody>
          {report.productos.map((product) => (
            <tr key={`${product.producto_id}-${product.factor_conversion}`}>
              <td>{product.producto_id}</td>
              <td>{product.producto}</td>
              <td>{product.uni_venta ?? ''}</td>
              <td>{product.cantidad}</td>
              <td class="num">{quantity(product.unidades)}</td>
              <td class="num">{quantity(product.facturas)}</td>
              <Amount value={product.importe} />
            </tr>
          ))}
          {report.productos.length === 0 && (
            <tr>
              <td colSpan={7}>Ningún producto en lo pedido.</td>
            </tr>
          )}
        </tbody>
        <tfoot>
          <tr class="total">
            <th scope="row" colSpan={6}>
              Total
            </th>
            <Amount value={report.totales.importe} />
          </tr>
        </tfoot>
      </table>
    </>
  )
}
