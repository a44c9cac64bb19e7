import { currentUser } from '../session.ts'
import { api } from '../api/client.ts'
import { Field } from './fields.tsx'
import { useLoad } from './data.ts'

/**
 * The warehouse filter of a list: a choice among the person's warehouses (none when they work in
 * one), or among the configured ones for those who see every warehouse.
 */
export function WarehouseFilter({ value, onChange }: { value: string; onChange: (code: string) => void }) {
  const mine = currentUser.value?.almacenes ?? 'todos'
  // Whoever sees every warehouse chooses among the configured ones.
  const configured = useLoad(
    () => (mine === 'todos' ? api.warehouses() : Promise.resolve({ almacenes: [...mine] })),
    [mine === 'todos'],
  )
  if (mine !== 'todos' && mine.length <= 1) return null
  const codes = configured.data?.almacenes ?? (value ? [value] : [])
  return (
    <Field label="Almacén">
      {(id) => (
        <select id={id} value={value} onChange={(event) => onChange(event.currentTarget.value)}>
          <option value="">{mine === 'todos' ? 'Todos' : 'Todos los míos'}</option>
          {codes.map((code) => (
            <option key={code} value={code}>
              {code}
            </option>
          ))}
        </select>
      )}
    </Field>
  )
}
