import { useState } from 'preact/hooks'
import { api, type ApiError } from '../../api/client.ts'
import { ROLES } from '../../format.ts'
import { currentUser } from '../../session.ts'
import { ErrorNote, Notice, Page } from '../../ui/components.tsx'
import { Field } from '../../ui/fields.tsx'
import { asApiError } from '../../ui/data.ts'

/** Mi cuenta: who I am, my warehouses, my password, log out. */
export function AccountScreen() {
  const user = currentUser.value!
  const [actual, setActual] = useState('')
  const [nueva, setNueva] = useState('')
  const [repetida, setRepetida] = useState('')
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<ApiError | null>(null)
  const [notice, setNotice] = useState<string | null>(null)
  const submit = async (event: Event) => {
    event.preventDefault()
    setError(null)
    setNotice(null)
    if (nueva !== repetida) {
      setError({ message: 'La contraseña nueva y su repetición no coinciden. Escríbalas otra vez.' } as ApiError)
      return
    }
    setBusy(true)
    try {
      await api.session.changePassword(actual, nueva)
      setActual('')
      setNueva('')
      setRepetida('')
      setNotice('Contraseña cambiada. Sus otras sesiones (otros navegadores) se cerraron.')
    } catch (failure) {
      setError(asApiError(failure))
    } finally {
      setBusy(false)
    }
  }
  const logOut = async () => {
    try {
      await api.session.logOut()
    } finally {
      currentUser.value = null
    }
  }
  return (
    <Page title="Mi cuenta">
      <dl class="resumen">
        <div>
          <dt>Nombre</dt>
          <dd>{user.nombre}</dd>
        </div>
        <div>
          <dt>Usuario</dt>
          <dd>{user.usuario}</dd>
        </div>
        <div>
          <dt>Rol</dt>
          <dd>{ROLES[user.rol]}</dd>
        </div>
        <div>
          <dt>Almacenes</dt>
          <dd>{user.almacenes === 'todos' ? 'Todos los almacenes' : user.almacenes.join(', ')}</dd>
        </div>
      </dl>
      <form class="tarjeta formulario" onSubmit={submit} aria-labelledby="titulo-contrasena" noValidate>
        <h2 id="titulo-contrasena">Cambiar mi contraseña</h2>
        <Field label="Contraseña actual">
          {(id) => (
            <input
              id={id}
              type="password"
              autoComplete="current-password"
              required
              value={actual}
              onInput={(event) => setActual(event.currentTarget.value)}
            />
          )}
        </Field>
        <Field
          label="Contraseña nueva"
          hint="Al menos 10 caracteres, distinta de su usuario; ni una contraseña común ni una secuencia como 123456 o qwerty"
        >
          {(id, hint) => (
            <input
              id={id}
              type="password"
              autoComplete="new-password"
              required
              minLength={10}
              aria-describedby={hint}
              value={nueva}
              onInput={(event) => setNueva(event.currentTarget.value)}
            />
          )}
        </Field>
        <Field label="Repita la contraseña nueva">
          {(id) => (
            <input
              id={id}
              type="password"
              autoComplete="new-password"
              required
              value={repetida}
              onInput={(event) => setRepetida(event.currentTarget.value)}
            />
          )}
        </Field>
        <ErrorNote error={error} />
        <Notice text={notice} />
        <div class="botones">
          <button type="submit" class="principal" disabled={busy} aria-busy={busy}>
            {busy ? 'Cambiando…' : 'Cambiar contraseña'}
          </button>
        </div>
      </form>
      <p>
        <button type="button" onClick={() => void logOut()}>
          Cerrar sesión
        </button>
      </p>
    </Page>
  )
}
