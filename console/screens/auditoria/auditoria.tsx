import { useState } from 'preact/hooks'
import { api } from '../../api/client.ts'
import { dateTime } from '../../format.ts'
import { Empty, ErrorNote, Loading, Page } from '../../ui/components.tsx'
import { DateField, Field } from '../../ui/fields.tsx'
import { Pager } from '../../ui/lists.tsx'
import { useFilters, useLoad } from '../../ui/data.ts'
import { actionName } from './acciones.ts'
import { EntryChanges } from './cambios.tsx'

const DEFAULTS = { desde: '', hasta: '', tipo: '', sujeto: '', usuario: '', pagina: '1' }
const TYPES = [
  ['devolucion', 'Devolución'],
  ['manifiesto', 'Manifiesto'],
  ['factura', 'Factura'],
  ['conflicto', 'Conflicto (decisiones)'],
  ['reemision', 'Re-emisión (decisiones)'],
  ['concepto', 'Concepto'],
  ['usuario', 'Usuario'],
] as const
const TYPE_NAMES = new Map<string, string>([...TYPES, ['sesion', 'Sesión']])
/**
 * Conflicts and re-issues are decided on an invoice: their entries are about a factura, told apart
 * by their action (conflicto.aceptado, reemision.confirmada…).
 */
const BY_ACTION: Record<string, { tipo: string; accion: string }> = {
  conflicto: { tipo: 'factura', accion: 'conflicto' },
  reemision: { tipo: 'factura', accion: 'reemision' },
}

/** Auditoría: every change, who made it and when, filtered by dates, type, subject and user. */
export function AuditScreen() {
  const [filters, setFilters] = useFilters(DEFAULTS)
  const [open, setOpen] = useState<string | null>(null)
  const page = Math.max(1, Number(filters.pagina) || 1)
  const { pagina: _page, tipo, ...rest } = filters
  const query = { ...rest, ...(BY_ACTION[tipo] ?? { tipo }) }
  const loaded = useLoad(() => api.audit.page({ ...query, pagina: String(page) }), [JSON.stringify(filters)])
  const entries = loaded.data?.entries ?? []
  const text = (key: 'sujeto' | 'usuario') => (event: Event) =>
    setFilters({ [key]: (event.currentTarget as HTMLInputElement).value }, { replace: true })
  return (
    <Page title="Auditoría" subtitle="Cada cambio queda registrado con quién lo hizo y cuándo.">
      <form
        class="filtros"
        role="search"
        aria-label="Filtrar la auditoría"
        noValidate
        onSubmit={(event) => event.preventDefault()}
      >
        <DateField label="Desde" value={filters.desde} onChange={(desde) => setFilters({ desde }, { replace: true })} />
        <DateField label="Hasta" value={filters.hasta} onChange={(hasta) => setFilters({ hasta }, { replace: true })} />
        <Field label="Tipo">
          {(id) => (
            <select id={id} value={filters.tipo} onChange={(event) => setFilters({ tipo: event.currentTarget.value })}>
              <option value="">Todos</option>
              {TYPES.map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Número o id" hint="Junto con el tipo, por ejemplo 905112">
          {(id, hint) => (
            <input id={id} type="search" aria-describedby={hint} value={filters.sujeto} onInput={text('sujeto')} />
          )}
        </Field>
        <Field label="Usuario" hint="Su usuario o su nombre, o parte de ellos">
          {(id, hint) => (
            <input id={id} type="search" aria-describedby={hint} value={filters.usuario} onInput={text('usuario')} />
          )}
        </Field>
      </form>
      <ErrorNote error={loaded.error} />
      {loaded.loading && !loaded.data ? (
        <Loading what="la auditoría" />
      ) : entries.length === 0 ? (
        <Empty>Ningún cambio coincide con los filtros. Amplíe las fechas o quite un filtro.</Empty>
      ) : (
        <>
          <Pager
            where="arriba"
            page={page}
            pages={loaded.data?.hasMore ? page + 1 : page}
            onPage={(value) => setFilters({ pagina: String(value) })}
          />
          <table class="auditoria">
            <thead>
              <tr>
                <th scope="col">Cuándo</th>
                <th scope="col">Quién</th>
                <th scope="col">Qué</th>
                <th scope="col">Sobre</th>
                <th scope="col">Detalle</th>
              </tr>
            </thead>
            <tbody>
              {entries.map((entry) => (
                <tr key={entry.id}>
                  <td>{dateTime(entry.en)}</td>
                  <td>
                    {entry.quien}
                    {entry.usuario && <span class="detalle"> {entry.usuario}</span>}
                  </td>
                  <td>{actionName(entry.accion)}</td>
                  <td>
                    {(TYPE_NAMES.get(entry.tipo) ?? entry.tipo).toLowerCase()} {entry.sujeto}
                  </td>
                  <td>
                    <button
                      type="button"
                      class="enlace"
                      aria-expanded={open === entry.id}
                      onClick={() => setOpen(open === entry.id ? null : entry.id)}
                    >
                      {open === entry.id ? 'Ocultar' : 'Ver'}
                    </button>
                    {open === entry.id && <EntryChanges entry={entry} />}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <Pager
            where="abajo"
            page={page}
            pages={loaded.data?.hasMore ? page + 1 : page}
            onPage={(value) => setFilters({ pagina: String(value) })}
          />
        </>
      )}
    </Page>
  )
}
