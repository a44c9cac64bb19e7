import type { AdjustmentView } from '../../api/types.ts'
import { dateTime, money } from '../../format.ts'

export function Adjustments({ adjustments }: { adjustments: AdjustmentView[] }) {
  return (
    <table class="compacta">
      <caption>Ajustes de centavos</caption>
      <thead>
        <tr>
          <th scope="col">Cuándo</th>
          <th scope="col" class="num">
            Monto
          </th>
          <th scope="col">Motivo</th>
          <th scope="col">Quién</th>
        </tr>
      </thead>
      <tbody>
        {adjustments.map((adjustment) => (
          <tr key={adjustment.id}>
            <td>{dateTime(adjustment.registrado_en)}</td>
            <td class="num">{money(adjustment.monto)}</td>
            <td>{adjustment.motivo}</td>
            <td>{adjustment.registrado_por}</td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}
