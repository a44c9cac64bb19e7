import { api } from '../../api/client.ts'
import type {
  AdjustmentView,
  DepositView,
  ManifestDetail,
  ReturnListItem,
  SettlementPartView,
} from '../../api/types.ts'
import { count, date, dateTime, money } from '../../format.ts'
import { useLoad } from '../../ui/data.ts'
import { allPages, Amount, cents, PrintSheet, SheetHead, Signatures } from './hoja.tsx'

interface Settlement {
  manifest: ManifestDetail
  deposits: DepositView[]
  adjustments: AdjustmentView[]
  returns: ReturnListItem[]
}

/** Everything the sheet shows, of one warehouse's part when `almacen` is given. */
async function loadSettlement(numero: string, almacen: string | undefined): Promise<Settlement> {
  const [manifest, deposits, adjustments, returns] = await Promise.all([
    api.manifests.get(numero),
    api.settlement.deposits(numero),
    api.settlement.adjustments(numero),
    allPages(async (pagina) => {
      const page = await api.returns.page({ buscar: numero, estado: 'approved', almacen, pagina: String(pagina) })
      return { items: page.devoluciones, more: page.hay_mas }
    }),
  ])
  const ours = <T extends { almacen: string }>(rows: T[]) =>
    rows.filter((row) => almacen === undefined || row.almacen === almacen)
  return {
    manifest,
    deposits: ours(deposits).filter((deposit) => deposit.estado === 'active'),
    adjustments: ours(adjustments),
    returns: returns.filter((ret) => ret.manifiesto === numero),
  }
}

/**
 * Liquidación (issue 42): facturado − devuelto = a depositar − depositado − ajustes = diferencia
 * per warehouse part, the deposits with bank and slip, the approved returns, the adjustments with
 * their motivo, and the signature lines of whoever hands the money over and whoever receives it.
 */
export function SettlementPrint({ numero, almacen }: { numero: string; almacen: string | undefined }) {
  const loaded = useLoad(() => loadSettlement(numero, almacen), [numero, almacen])
  return (
    <PrintSheet title={`Liquidación · Manifiesto ${numero}`} ready={loaded.data !== undefined} error={loaded.error}>
      {loaded.data && <SettlementSheet data={loaded.data} almacen={almacen} />}
    </PrintSheet>
  )
}

const FIGURES: Array<
  [
    keyof Pick<SettlementPartView, 'facturado' | 'devuelto' | 'a_depositar' | 'depositado' | 'ajustes' | 'diferencia'>,
    string,
  ]
> = [
  ['facturado', 'Facturado'],
  ['devuelto', '− Devuelto'],
  ['a_depositar', '= A depositar'],
  ['depositado', '− Depositado'],
  ['ajustes', '− Ajustes'],
  ['diferencia', '= Diferencia'],
]

function SettlementSheet({ data, almacen }: { data: Settlement; almacen: string | undefined }) {
  const { manifest } = data
  const parts = manifest.liquidacion.por_almacen.filter((part) => almacen === undefined || part.almacen === almacen)
  const total = (field: (typeof FIGURES)[number][0]) => parts.reduce((sum, part) => sum + cents(part[field]), 0) / 100
  const depositSum = data.deposits.reduce((sum, deposit) => sum + cents(deposit.monto), 0) / 100
  const returnSum = data.returns.reduce((sum, ret) => sum + cents(ret.total), 0) / 100
  const adjustmentSum = data.adjustments.reduce((sum, adjustment) => sum + cents(adjustment.monto), 0) / 100
  return (
    <>
      <SheetHead title="Liquidación del manifiesto">
        Manifiesto {manifest.numero} · ingresó el {dateTime(manifest.fecha_ingreso)} ·{' '}
        {manifest.estado === 'closed' ? `cerrado el ${dateTime(manifest.cerrado_en)}` : 'abierto'}
        {almacen ? ` · almacén ${almacen}` : ''}
      </SheetHead>
      <table class="tabla-impresa">
        <caption>Cuentas por almacén</caption>
        <thead>
          <tr>
            <th scope="col">Almacén</th>
            {FIGURES.map(([field, label]) => (
              <th key={field} scope="col" class="num">
                {label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {parts.map((part) => (
            <tr key={part.almacen}>
              <th scope="row">{part.almacen}</th>
              {FIGURES.map(([field]) => (
                <Amount key={field} value={part[field]} />
              ))}
            </tr>
          ))}
        </tbody>
        {parts.length > 1 && (
          <tfoot>
            <tr class="total">
              <th scope="row">Total</th>
              {FIGURES.map(([field]) => (
                <Amount key={field} value={total(field)} />
              ))}
            </tr>
          </tfoot>
        )}
      </table>
      <p class="estado-liquidacion">
        {manifest.liquidacion.falta ?? (manifest.liquidacion.liquidada ? 'Liquidado: la diferencia es cero.' : '')}
      </p>
      <table class="tabla-impresa">
        <caption>Depósitos ({count(data.deposits.length, 'depósito')})</caption>
        <thead>
          <tr>
            <th scope="col">Fecha</th>
            <th scope="col">Banco</th>
            <th scope="col">Boleta</th>
            <th scope="col">Almacén</th>
            <th scope="col">Registró</th>
            <th scope="col" class="num">
              Monto
            </th>
          </tr>
        </thead>
        <tbody>
          {data.deposits.map((deposit) => (
            <tr key={deposit.id}>
              <td>{date(deposit.fecha)}</td>
              <td>{deposit.banco}</td>
              <td>{deposit.referencia}</td>
              <td>{deposit.almacen}</td>
              <td>{deposit.registrado_por}</td>
              <Amount value={deposit.monto} />
            </tr>
          ))}
          {data.deposits.length === 0 && (
            <tr>
              <td colSpan={6}>Ningún depósito registrado.</td>
            </tr>
          )}
        </tbody>
        <tfoot>
          <tr class="total">
            <th scope="row" colSpan={5}>
              Total depositado
            </th>
            <td class="num">{money(depositSum)}</td>
          </tr>
        </tfoot>
      </table>
      <table class="tabla-impresa">
        <caption>Devoluciones aprobadas ({count(data.returns.length, 'devolución', 'devoluciones')})</caption>
        <thead>
          <tr>
            <th scope="col">N.º</th>
            <th scope="col">Factura</th>
            <th scope="col">Cliente</th>
            <th scope="col">Concepto</th>
            <th scope="col">Aprobada</th>
            <th scope="col" class="num">
              Total
            </th>
          </tr>
        </thead>
        <tbody>
          {data.returns.map((ret) => (
            <tr key={ret.id}>
              <td>{ret.id}</td>
              <td>{ret.factura}</td>
              <td>{ret.cliente}</td>
              <td>{ret.conceptoDescripcion}</td>
              <td>{date(ret.fechaProcesado)}</td>
              <Amount value={ret.total} />
            </tr>
          ))}
          {data.returns.length === 0 && (
            <tr>
              <td colSpan={6}>Ninguna devolución aprobada.</td>
            </tr>
          )}
        </tbody>
        <tfoot>
          <tr class="total">
            <th scope="row" colSpan={5}>
              Total devuelto
            </th>
            <td class="num">{money(returnSum)}</td>
          </tr>
        </tfoot>
      </table>
      {data.adjustments.length > 0 && (
        <table class="tabla-impresa">
          <caption>Ajustes de centavos</caption>
          <thead>
            <tr>
              <th scope="col">Registrado</th>
              <th scope="col">Almacén</th>
              <th scope="col">Motivo</th>
              <th scope="col">Por</th>
              <th scope="col" class="num">
                Monto
              </th>
            </tr>
          </thead>
          <tbody>
            {data.adjustments.map((adjustment) => (
              <tr key={adjustment.id}>
                <td>{dateTime(adjustment.registrado_en)}</td>
                <td>{adjustment.almacen}</td>
                <td>{adjustment.motivo}</td>
                <td>{adjustment.registrado_por}</td>
                <Amount value={adjustment.monto} />
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr class="total">
              <th scope="row" colSpan={4}>
                Total de ajustes
              </th>
              <td class="num">{money(adjustmentSum)}</td>
            </tr>
          </tfoot>
        </table>
      )}
      <Signatures who={['Entrega', 'Recibe']} />
    </>
  )
}
