import type { ReturnLine } from '../../api/types.ts'
import { boxesAndUnits, isBoxLine, quantity, unitsText } from '../../format.ts'
import { Money } from '../../ui/components.tsx'

/** A return line's quantity as the warehouse counts it: `8 cajas + 55 unid.` and the units beside it. */
export function ReturnedQuantity({ line }: { line: ReturnLine }) {
  // Less than a box is said in units alone.
  if (!isBoxLine(line.uniVenta, line.factor_conversion) || line.unidades < line.factor_conversion)
    return <>{unitsText(line.unidades)}</>
  return (
    <>
      {boxesAndUnits(line.unidades, line.factor_conversion)} <span class="detalle">{unitsText(line.unidades)}</span>
    </>
  )
}

/** The lines of a return: what is sent back, in boxes and units, and what each is worth. */
export function ReturnLines({ lines, total, caption }: { lines: ReturnLine[]; total: number; caption: string }) {
  return (
    <table class="lineas-de-devolucion">
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col" class="num">
            Línea
          </th>
          <th scope="col">Producto</th>
          <th scope="col" class="num">
            Cantidad
          </th>
          <th scope="col" class="num">
            Importe
          </th>
        </tr>
      </thead>
      <tbody>
        {lines.map((line) => (
          <tr key={line.numeroLinea}>
            <td class="num">{line.numeroLinea}</td>
            <td>
              {line.producto}
              <span class="detalle">
                {' '}
                {line.productoId}
                {isBoxLine(line.uniVenta, line.factor_conversion)
                  ? ` · caja de ${quantity(line.factor_conversion)}`
                  : ''}
              </span>
            </td>
            <td class="num">
              <ReturnedQuantity line={line} />
            </td>
            <td class="num">
              <Money amount={line.lineTotal} />
            </td>
          </tr>
        ))}
      </tbody>
      <tfoot>
        <tr>
          <th scope="row" colSpan={3} class="num">
            Total de la devolución
          </th>
          <td class="num">
            <Money amount={total} />
          </td>
        </tr>
      </tfoot>
    </table>
  )
}
