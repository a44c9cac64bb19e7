import { quantity } from '../format.ts'

/**
 * Previous / next page. Long lists show it above and below (`where`): each has its own name, so a
 * screen reader tells the two apart.
 */
export function Pager({
  page,
  pages,
  onPage,
  label = 'Páginas',
  where,
}: {
  page: number
  pages: number
  onPage: (page: number) => void
  label?: string
  where?: 'arriba' | 'abajo'
}) {
  if (pages <= 1) return null
  return (
    <nav
      class={where === 'arriba' ? 'paginador arriba' : 'paginador'}
      aria-label={where ? `${label} (${where})` : label}
    >
      <button type="button" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        ← Anterior
      </button>
      <span aria-live={where === 'arriba' ? undefined : 'polite'}>
        Página {quantity(page)} de {quantity(pages)}
      </span>
      <button type="button" disabled={page >= pages} onClick={() => onPage(page + 1)}>
        Siguiente →
      </button>
    </nav>
  )
}

/**
 * A column header that sorts its list: a button that cycles largest first → smallest first (the
 * list's order in the address as `orden`: `-total`, `total`), `aria-sort` saying the order now.
 */
export function SortHeader({
  label,
  field,
  order,
  onOrder,
  numeric,
  defaultOrder,
}: {
  label: string
  field: string
  order: string
  onOrder: (order: string) => void
  numeric?: boolean
  defaultOrder: string
}) {
  const current = order === field ? 'ascending' : order === `-${field}` ? 'descending' : 'none'
  const next = current === 'descending' ? field : current === 'ascending' ? defaultOrder : `-${field}`
  return (
    <th scope="col" class={numeric ? 'num' : undefined} aria-sort={current}>
      <button
        type="button"
        class="ordenar"
        onClick={() => onOrder(next)}
        title={
          current === 'descending'
            ? 'Ordenar de menor a mayor'
            : current === 'ascending'
              ? 'Quitar el orden'
              : 'Ordenar de mayor a menor'
        }
      >
        {label}
        <span aria-hidden="true">{current === 'descending' ? ' ▼' : current === 'ascending' ? ' ▲' : ' ⇅'}</span>
      </button>
    </th>
  )
}
