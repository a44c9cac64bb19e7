import { useEffect, useRef, useState } from 'preact/hooks'
import { api, type ApiError } from '../../api/client.ts'
import { currentUser, sessionEnded } from '../../session.ts'
import { ErrorNote } from '../../ui/components.tsx'
import { Field } from '../../ui/fields.tsx'
import { asApiError } from '../../ui/data.ts'

/** Entrar: the person's own login name and password. The service's message is shown as it is. */
export function LoginScreen() {
  const [usuario, setUsuario] = useState('')
  const [contrasena, setContrasena] = useState('')
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<ApiError | null>(null)
  const first = useRef<HTMLInputElement>(null)
  useEffect(() => {
    document.title = 'Entrar · Manifiesto'
    first.current?.focus()
  }, [])
  const submit = async (event: Event) => {
    event.preventDefault()
    if (usuario.trim() === '' || contrasena === '') {
      setError({ message: usuario.trim() === '' ? 'Escriba su usuario.' : 'Escriba su contraseña.' } as ApiError)
      return
    }
    setBusy(true)
    setError(null)
    try {
      const user = await api.session.logIn(usuario.trim(), contrasena)
      sessionEnded.value = false
      currentUser.value = user
    } catch (failure) {
      setError(asApiError(failure))
      setContrasena('')
      setBusy(false)
    }
  }
  return (
    <main class="entrada" id="contenido">
      <form class="tarjeta" onSubmit={submit} aria-labelledby="titulo-entrar" noValidate>
        <h1 id="titulo-entrar">Consola del almacén</h1>
        <p class="subtitulo">Entre con su usuario personal.</p>
        {sessionEnded.value && error === null && (
          <p class="aviso" role="status">
            Su sesión terminó. Entre de nuevo para seguir donde estaba.
          </p>
        )}
        <Field label="Usuario">
          {(id) => (
            <input
              id={id}
              ref={first}
              name="usuario"
              autoComplete="username"
              required
              value={usuario}
              onInput={(event) => setUsuario(event.currentTarget.value)}
            />
          )}
        </Field>
        <Field label="Contraseña">
          {(id) => (
            <input
              id={id}
              type="password"
              name="contrasena"
              autoComplete="current-password"
              required
              value={contrasena}
              onInput={(event) => setContrasena(event.currentTarget.value)}
            />
          )}
        </Field>
        <ErrorNote error={error} />
        <button type="submit" class="principal" disabled={busy} aria-busy={busy}>
          {busy ? 'Entrando…' : 'Entrar'}
        </button>
        <p class="ayuda">¿Olvidó su contraseña? Pida al administrador que le ponga una nueva.</p>
      </form>
    </main>
  )
}
