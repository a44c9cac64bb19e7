import { api } from '../../api/client.ts'
import type { DepositView } from '../../api/types.ts'
import { count, date, money } from '../../format.ts'
import { useLoad } from '../../ui/data.ts'
import { allPages, Amount, cents, PrintSheet, SheetHead } from './hoja.tsx'

/** Depósitos (issue 42): the active deposits of a range of slip dates, grouped by bank, with totals. */
export function DepositsPrint({ desde, hasta, almacen }: { desde?: string; hasta?: string; almacen?: string }) {
  const loaded = useLoad(
    () =>
      allPages(async (pagina) => {
        const page = await api.settlement.page({ desde, hasta, almacen, pagina: String(pagina) })
        return { items: page.depositos, more: page.hay_mas }
      }),
    [desde, hasta, almacen],
  )
  return (
    <PrintSheet title="Depósitos" ready={loaded.data !== undefined} error={loaded.error}>
      {loaded.data && <DepositsSheet deposits={loaded.data} desde={desde} hasta={hasta} almacen={almacen} />}
    </PrintSheet>
  )
}

function DepositsSheet({
  deposits,
  desde,
  hasta,
  almacen,
}: {
  deposits: DepositView[]
  desde?: string
  hasta?: string
  almacen?: string
}) {
  const banks = new Map<string, DepositView[]>()
  for (const deposit of [...deposits].sort((a, b) => a.fecha.localeCompare(b.fecha) || Number(a.id) - Number(b.id)))
    banks.set(deposit.banco, [...(banks.get(deposit.banco) ?? []), deposit])
  const sum = (rows: readonly DepositView[]) => rows.reduce((total, deposit) => total + cents(deposit.monto), 0) / 100
  const range =
    desde && hasta
      ? `del ${date(desde)} al ${date(hasta)}`
      : desde
        ? `desde el ${date(desde)}`
        : hasta
          ? `hasta el ${date(hasta)}`
          : 'de todas las fechas'
  return (
    <>
      <SheetHead title="Depósitos">
        Boletas {range}
        {almacen ? ` · almacén ${almacen}` : ''} · {count(deposits.length, 'depósito')} en {count(banks.size, 'banco')}
      </SheetHead>
      <table class="tabla-impresa">
        <thead>
          <tr>
            <th scope="col">Fecha</th>
            <th scope="col">Boleta</th>
            <th scope="col">Manifiesto</th>
            <th scope="col">Almacén</th>
            <th scope="col">Registró</th>
            <th scope="col" class="num">
              Monto
            </th>
          </tr>
        </thead>
        {[...banks]
          .sort(([a], [b]) => a.localeCompare(b, 'es'))
          .map(([bank, rows]) => (
            <tbody key={bank} class="grupo">
              <tr class="titulo-grupo">
                <th scope="rowgroup" colSpan={6}>
                  {bank} · {count(rows.length, 'depósito')}
                </th>
              </tr>
              {rows.map((deposit) => (
                <tr key={deposit.id}>
                  <td>{date(deposit.fecha)}</td>
                  <td>{deposit.referencia}</td>
                  <td>{deposit.manifiesto}</td>
                  <td>{deposit.almacen}</td>
                  <td>{deposit.registrado_por}</td>
                  <Amount value={deposit.monto} />
                </tr>
              ))}
              <tr class="subtotal">
                <th scope="row" colSpan={5}>
                  Total {bank}
                </th>
                <td class="num">{money(sum(rows))}</td>
              </tr>
            </tbody>
          ))}
        <tfoot>
          <tr class="total">
            <th scope="row" colSpan={5}>
              Total depositado
            </th>
            <td class="num">{money(sum(deposits))}</td>
          </tr>
        </tfoot>
      </table>
    </>
  )
}
