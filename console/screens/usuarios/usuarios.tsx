import { useState } from 'preact/hooks'
import { api, type ApiError } from '../../api/client.ts'
import type { Role, UserView } from '../../api/types.ts'
import { dateTime, ROLES } from '../../format.ts'
import { Empty, ErrorNote, Loading, Notice, Page, StateTag } from '../../ui/components.tsx'
import { ActionDialog } from '../../ui/dialog.tsx'
import { Field } from '../../ui/fields.tsx'
import { asApiError, useLoad } from '../../ui/data.ts'

type Editing =
  | { kind: 'nuevo' }
  | { kind: 'editar'; user: UserView }
  | { kind: 'contrasena'; user: UserView }
  | { kind: 'desbloquear'; user: UserView }

/** Usuarios (administrador): the people who use the console, their role and warehouses. */
export function UsersScreen() {
  const loaded = useLoad(() => api.users.list(), [])
  const [editing, setEditing] = useState<Editing | null>(null)
  const [notice, setNotice] = useState<string | null>(null)
  const done = (text: string) => {
    setEditing(null)
    setNotice(text)
    loaded.reload()
  }
  return (
    <Page
      title="Usuarios"
      subtitle="Cada persona entra con su propio usuario; su rol y sus almacenes deciden qué ve y qué puede hacer."
      actions={
        editing === null && (
          <button type="button" class="principal" onClick={() => setEditing({ kind: 'nuevo' })}>
            Nuevo usuario
          </button>
        )
      }
    >
      <Notice text={notice} />
      <ErrorNote error={loaded.error} />
      {editing?.kind === 'nuevo' && <UserForm user={null} onDone={done} onCancel={() => setEditing(null)} />}
      {editing?.kind === 'editar' && <UserForm user={editing.user} onDone={done} onCancel={() => setEditing(null)} />}
      {editing?.kind === 'contrasena' && (
        <PasswordDialog user={editing.user} onDone={done} onCancel={() => setEditing(null)} />
      )}
      {editing?.kind === 'desbloquear' && (
        <UnlockDialog user={editing.user} onDone={done} onCancel={() => setEditing(null)} />
      )}
      {loaded.loading && !loaded.data && <Loading what="los usuarios" />}
      {loaded.data && loaded.data.length === 0 && <Empty>No hay usuarios. Cree el primero con «Nuevo usuario».</Empty>}
      {loaded.data && loaded.data.length > 0 && (
        <table>
          <thead>
            <tr>
              <th scope="col">Usuario</th>
              <th scope="col">Nombre</th>
              <th scope="col">Rol</th>
              <th scope="col">Almacenes</th>
              <th scope="col">Estado</th>
              <th scope="col">Último ingreso</th>
              <th scope="col">Acciones</th>
            </tr>
          </thead>
          <tbody>
            {loaded.data.map((user) => (
              <tr key={user.usuario} class={user.activo ? undefined : 'inactiva'}>
                <th scope="row">{user.usuario}</th>
                <td>{user.nombre}</td>
                <td>{ROLES[user.rol]}</td>
                <td>{user.almacenes === 'todos' ? 'Todos los almacenes' : user.almacenes.join(', ')}</td>
                <td>
                  {user.activo ? 'Activo' : 'Inactivo'}
                  {user.bloqueado_hasta && (
                    <>
                      {' '}
                      <StateTag state="bloqueado" label={`Bloqueado hasta ${dateTime(user.bloqueado_hasta)}`} />
                    </>
                  )}
                </td>
                <td>{user.ultimo_ingreso ? dateTime(user.ultimo_ingreso) : <span class="tenue">Nunca</span>}</td>
                <td class="acciones-fila">
                  <button
                    type="button"
                    aria-label={`Editar a ${user.usuario}`}
                    onClick={() => setEditing({ kind: 'editar', user })}
                  >
                    Editar
                  </button>
                  <button
                    type="button"
                    aria-label={`Poner contraseña nueva a ${user.usuario}`}
                    onClick={() => setEditing({ kind: 'contrasena', user })}
                  >
                    Contraseña nueva
                  </button>
                  {user.bloqueado_hasta && (
                    <button
                      type="button"
                      aria-label={`Desbloquear a ${user.usuario}`}
                      onClick={() => setEditing({ kind: 'desbloquear', user })}
                    >
                      Desbloquear
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Page>
  )
}

function UserForm({
  user,
  onDone,
  onCancel,
}: {
  user: UserView | null
  onDone: (text: string) => void
  onCancel: () => void
}) {
  const [usuario, setUsuario] = useState(user?.usuario ?? '')
  const [nombre, setNombre] = useState(user?.nombre ?? '')
  const [rol, setRol] = useState<Role>(user?.rol ?? 'operador')
  // Ticked warehouses, or 'todos' for the explicit "Todos los almacenes"; none ticked is refused.
  const [almacenes, setAlmacenes] = useState<'todos' | readonly string[]>(user === null ? [] : user.almacenes)
  const configured = useLoad(() => api.warehouses(), [])
  const [activo, setActivo] = useState(user?.activo ?? true)
  const [contrasena, setContrasena] = useState('')
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<ApiError | null>(null)
  const everyWarehouse = rol === 'admin'
  const submit = async (event: Event) => {
    event.preventDefault()
    if (!everyWarehouse && almacenes !== 'todos' && almacenes.length === 0) {
      setError({
        message: 'Elija al menos un almacén, o «Todos los almacenes»: un usuario sin almacén no vería nada.',
      } as ApiError)
      return
    }
    const chosen = everyWarehouse || almacenes === 'todos' ? 'todos' : [...almacenes]
    setBusy(true)
    setError(null)
    try {
      if (user === null) {
        await api.users.create({ usuario: usuario.trim(), nombre: nombre.trim(), rol, almacenes: chosen, contrasena })
        onDone(`Usuario ${usuario.trim()} creado. Dele su contraseña en persona; puede cambiarla en Mi cuenta.`)
      } else {
        await api.users.change(user.usuario, { nombre: nombre.trim(), rol, almacenes: chosen, activo })
        onDone(`Usuario ${user.usuario} guardado.`)
      }
    } catch (failure) {
      setError(asApiError(failure))
      setBusy(false)
    }
  }
  return (
    <form class="tarjeta formulario" onSubmit={submit} aria-labelledby="titulo-usuario" noValidate>
      <h2 id="titulo-usuario">{user === null ? 'Nuevo usuario' : `Editar a ${user.usuario}`}</h2>
      <div class="filtros">
        <Field label="Usuario" hint="3 a 40 letras, dígitos, . _ -">
          {(id, hint) => (
            <input
              id={id}
              required
              autoComplete="off"
              pattern="[A-Za-z0-9._\-]{3,40}"
              aria-describedby={hint}
              disabled={user !== null}
              value={usuario}
              onInput={(event) => setUsuario(event.currentTarget.value)}
            />
          )}
        </Field>
        <Field label="Nombre" hint="Como aparecerá en la auditoría" wide>
          {(id, hint) => (
            <input
              id={id}
              required
              maxLength={120}
              aria-describedby={hint}
              value={nombre}
              onInput={(event) => setNombre(event.currentTarget.value)}
            />
          )}
        </Field>
        <Field label="Rol">
          {(id) => (
            <select id={id} value={rol} onChange={(event) => setRol(event.currentTarget.value as Role)}>
              {(Object.keys(ROLES) as Role[]).map((value) => (
                <option key={value} value={value}>
                  {ROLES[value]}
                </option>
              ))}
            </select>
          )}
        </Field>
        <fieldset class="casillas" aria-describedby="almacenes-ayuda">
          <legend>Almacenes</legend>
          <label class="casilla">
            <input
              type="checkbox"
              checked={everyWarehouse || almacenes === 'todos'}
              disabled={everyWarehouse}
              onChange={(event) => setAlmacenes(event.currentTarget.checked ? 'todos' : [])}
            />{' '}
            Todos los almacenes
          </label>
          {(configured.data?.almacenes ?? []).map((code) => (
            <label class="casilla" key={code}>
              <input
                type="checkbox"
                checked={!everyWarehouse && almacenes !== 'todos' && almacenes.includes(code)}
                disabled={everyWarehouse || almacenes === 'todos'}
                onChange={(event) => {
                  const on = event.currentTarget.checked
                  setAlmacenes((previous) =>
                    previous === 'todos'
                      ? previous
                      : on
                        ? [...previous, code]
                        : previous.filter((other) => other !== code),
                  )
                }}
              />{' '}
              {code}
            </label>
          ))}
          <small id="almacenes-ayuda" class="ayuda">
            {everyWarehouse
              ? 'Un administrador trabaja en todos los almacenes.'
              : 'Marque los almacenes en que trabaja; al menos uno.'}
          </small>
        </fieldset>
        {user === null ? (
          <Field
            label="Contraseña inicial"
            hint="Al menos 10 caracteres; ni una contraseña común ni una secuencia como 123456 o qwerty"
          >
            {(id, hint) => (
              <input
                id={id}
                type="password"
                autoComplete="new-password"
                required
                minLength={10}
                aria-describedby={hint}
                value={contrasena}
                onInput={(event) => setContrasena(event.currentTarget.value)}
              />
            )}
          </Field>
        ) : (
          <div class="campo">
            <label class="casilla">
              <input type="checkbox" checked={activo} onChange={(event) => setActivo(event.currentTarget.checked)} />{' '}
              Activo (puede entrar)
            </label>
          </div>
        )}
      </div>
      <ErrorNote error={error} />
      <div class="botones">
        <button type="button" onClick={onCancel} disabled={busy}>
          Cancelar
        </button>
        <button type="submit" class="principal" disabled={busy} aria-busy={busy}>
          {busy ? 'Guardando…' : user === null ? 'Crear usuario' : 'Guardar usuario'}
        </button>
      </div>
    </form>
  )
}

function PasswordDialog({
  user,
  onDone,
  onCancel,
}: {
  user: UserView
  onDone: (text: string) => void
  onCancel: () => void
}) {
  const [contrasena, setContrasena] = useState('')
  return (
    <ActionDialog
      title={`Contraseña nueva para ${user.usuario}`}
      message={
        <>
          <p>Sus sesiones abiertas se cierran. Dele la contraseña en persona; puede cambiarla en Mi cuenta.</p>
          <Field
            label="Contraseña nueva"
            hint="Al menos 10 caracteres; ni una contraseña común ni una secuencia como 123456 o qwerty"
          >
            {(id, hint) => (
              <input
                id={id}
                type="password"
                autoComplete="new-password"
                required
                minLength={10}
                aria-describedby={hint}
                value={contrasena}
                onInput={(event) => setContrasena(event.currentTarget.value)}
              />
            )}
          </Field>
        </>
      }
      confirmLabel="Poner contraseña"
      onConfirm={() => api.users.setPassword(user.usuario, contrasena)}
      onDone={() => onDone(`Contraseña de ${user.usuario} cambiada; sus sesiones se cerraron.`)}
      onCancel={onCancel}
    />
  )
}

function UnlockDialog({
  user,
  onDone,
  onCancel,
}: {
  user: UserView
  onDone: (text: string) => void
  onCancel: () => void
}) {
  return (
    <ActionDialog
      title={`Desbloquear a ${user.usuario}`}
      message={`Está bloqueado hasta ${dateTime(user.bloqueado_hasta)} por intentos fallidos de entrar. Al desbloquearlo puede entrar enseguida con su contraseña; si la olvidó, póngale una contraseña nueva.`}
      confirmLabel="Desbloquear"
      onConfirm={() => api.users.unlock(user.usuario)}
      onDone={() => onDone(`Usuario ${user.usuario} desbloqueado: ya puede entrar con su contraseña.`)}
      onCancel={onCancel}
    />
  )
}
