import { currentUser } from '../session.ts'
import { Field } from './components.tsx'

/**
 * The warehouse filter of a list: a choice among the person's warehouses (none when they work in
 * one), or a code to type for those who see every warehouse.
 */
export function WarehouseFilter({ value, onChange }: { value: string; onChange: (code: string) => void }) {
  const mine = currentUser.value?.almacenes ?? 'todos'
  if (mine !== 'todos' && mine.length <= 1) return null
  return (
    <Field label="Almacén" hint={mine === 'todos' ? 'Código, vacío para todos' : undefined}>
      {(id, hint) =>
        mine === 'todos' ? (
          <input id={id} class="codigo" aria-describedby={hint} maxLength={20} value={value} onInput={(event) => onChange(event.currentTarget.value.trim().toUpperCase())} />
        ) : (
          <select id={id} value={value} onChange={(event) => onChange(event.currentTarget.value)}>
            <option value="">Todos los míos</option>
            {mine.map((code) => (
              <option key={code} value={code}>
                {code}
              </option>
            ))}
          </select>
        )
      }
    </Field>
  )
}
