import { Link, useSearch } from 'wouter-preact'
import { withQuery } from '../../api/client.ts'
import { canSeeDeposits } from '../../session.ts'

/** Where each print view is (issue 42): the address keeps the filters, so a link reprints the same paper. */
export const printAddress = {
  routeSheet: (numero: string, almacen?: string) =>
    withQuery(`/imprimir/ruta/${encodeURIComponent(numero)}`, { almacen }),
  invoices: (numero: string, almacen?: string) =>
    withQuery(`/imprimir/facturas/${encodeURIComponent(numero)}`, { almacen }),
  invoice: (nfactura: string) => `/imprimir/factura/${encodeURIComponent(nfactura)}`,
  settlement: (numero: string, almacen?: string) =>
    withQuery(`/imprimir/liquidacion/${encodeURIComponent(numero)}`, { almacen }),
  returns: (filters: { desde?: string; hasta?: string; estado?: string; almacen?: string }) =>
    withQuery('/imprimir/devoluciones', filters),
  deposits: (filters: { desde?: string; hasta?: string; almacen?: string }) =>
    withQuery('/imprimir/depositos', filters),
  products: (filters: { manifiesto?: string; desde?: string; hasta?: string; almacen?: string }) =>
    withQuery('/imprimir/productos', filters),
}

/** A manifest's papers, of the warehouse its screen is filtered to (`almacen` in the address) or all of the person's. */
export function ManifestPrintLinks({ numero }: { numero: string }) {
  const almacen = new URLSearchParams(useSearch()).get('almacen') || undefined
  return (
    <nav class="imprimir" aria-label="Imprimir">
      <Link href={printAddress.routeSheet(numero, almacen)} class="boton">
        Imprimir hoja de ruta
      </Link>
      <Link href={printAddress.invoices(numero, almacen)} class="boton">
        Imprimir facturas
      </Link>
      {canSeeDeposits.value && (
        <Link href={printAddress.settlement(numero, almacen)} class="boton">
          Imprimir liquidación
        </Link>
      )}
      <Link href={printAddress.products({ manifiesto: numero, almacen })} class="boton">
        Imprimir productos
      </Link>
    </nav>
  )
}

/** One "Imprimir" link to a print view. */
export function PrintLink({ href, label = 'Imprimir' }: { href: string; label?: string }) {
  return (
    <Link href={href} class="boton">
      {label}
    </Link>
  )
}
