import { api } from '../../api/client.ts'
import { dateTime } from '../../format.ts'
import { Empty, ErrorNote, Loading } from '../../ui/components.tsx'
import { useLoad } from '../../ui/data.ts'
import { actionName } from './acciones.ts'

/** The audit log of one thing (a manifest, a return): who did what, when. */
export function History({ tipo, sujeto }: { tipo: string; sujeto: string }) {
  const loaded = useLoad(async () => (await api.audit.page({ tipo, sujeto })).entries, [tipo, sujeto])
  return (
    <section aria-labelledby={`historial-${tipo}`}>
      <h2 id={`historial-${tipo}`}>Historial</h2>
      <ErrorNote error={loaded.error} />
      {loaded.loading && !loaded.data && <Loading what="el historial" />}
      {loaded.data && loaded.data.length === 0 && <Empty>Sin cambios registrados todavía.</Empty>}
      {loaded.data && loaded.data.length > 0 && (
        <table>
          <thead>
            <tr>
              <th scope="col">Cuándo</th>
              <th scope="col">Quién</th>
              <th scope="col">Qué</th>
              <th scope="col">Motivo o nota</th>
            </tr>
          </thead>
          <tbody>
            {loaded.data.map((entry) => (
              <tr key={entry.id}>
                <td>{dateTime(entry.en)}</td>
                <td>{entry.quien}</td>
                <td>{actionName(entry.accion)}</td>
                <td>{noteOf(entry.detalle) ?? noteOf(entry.despues) ?? '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  )
}

function noteOf(value: unknown): string | null {
  if (value === null || typeof value !== 'object') return null
  const record = value as Record<string, unknown>
  for (const key of ['motivo', 'nota'])
    if (typeof record[key] === 'string' && record[key] !== '') return record[key] as string
  return null
}
