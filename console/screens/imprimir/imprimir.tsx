import { Route, Switch, useSearch } from 'wouter-preact'
import './impresion.css'
import { canSeeDeposits } from '../../session.ts'
import { addressSegmentAfter } from '../../ui/address.ts'
import { DepositsPrint } from './depositos.tsx'
import { ReturnsPrint } from './devoluciones.tsx'
import { InvoicePrint, ManifestInvoicesPrint } from './factura.tsx'
import { RouteSheetPrint } from './hoja-ruta.tsx'
import { SettlementPrint } from './liquidacion.tsx'
import { ProductsPrint } from './productos.tsx'

/**
 * The print views (issue 42), each at its own address under /consola/imprimir/ with its filters
 * in the query: a link reprints the same paper. Drawn without the console's bar and navigation.
 */
export function PrintRoutes() {
  const query = new URLSearchParams(useSearch())
  const param = (name: string) => query.get(name) || undefined
  return (
    <Switch>
      <Route path="/imprimir/ruta/:numero">
        {(params) => <RouteSheetPrint numero={params.numero} almacen={param('almacen')} />}
      </Route>
      <Route path="/imprimir/facturas/:numero">
        {(params) => <ManifestInvoicesPrint numero={params.numero} almacen={param('almacen')} />}
      </Route>
      <Route path="/imprimir/factura/:nfactura">
        {() => <InvoicePrint nfactura={addressSegmentAfter('factura')} />}
      </Route>
      <Route path="/imprimir/liquidacion/:numero">
        {(params) =>
          canSeeDeposits.value ? <SettlementPrint numero={params.numero} almacen={param('almacen')} /> : <NotForRole />
        }
      </Route>
      <Route path="/imprimir/devoluciones">
        {() => (
          <ReturnsPrint
            filters={{
              desde: param('desde'),
              hasta: param('hasta'),
              estado: param('estado'),
              almacen: param('almacen'),
            }}
          />
        )}
      </Route>
      <Route path="/imprimir/depositos">
        {() =>
          canSeeDeposits.value ? (
            <DepositsPrint desde={param('desde')} hasta={param('hasta')} almacen={param('almacen')} />
          ) : (
            <NotForRole />
          )
        }
      </Route>
      <Route path="/imprimir/productos">
        {() => (
          <ProductsPrint
            manifiesto={param('manifiesto')}
            desde={param('desde')}
            hasta={param('hasta')}
            almacen={param('almacen')}
          />
        )}
      </Route>
      <Route>
        <p class="aviso error" role="alert">
          Esta impresión no existe. Vuelva a la consola (<a href="/consola/">Inicio</a>) e imprima desde la pantalla que
          muestra los datos.
        </p>
      </Route>
    </Switch>
  )
}

function NotForRole() {
  return (
    <p class="aviso error" role="alert">
      Su rol no ve el dinero de los manifiestos: esta impresión es para supervisores y finanzas. Vuelva a la consola (
      <a href="/consola/">Inicio</a>).
    </p>
  )
}
