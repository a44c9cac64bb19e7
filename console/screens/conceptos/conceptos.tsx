import { useState } from 'preact/hooks'
import { api, type ApiError } from '../../api/client.ts'
import type { Reason } from '../../api/types.ts'
import { isSupervisor } from '../../session.ts'
import { Empty, ErrorNote, Loading, Notice, Page } from '../../ui/components.tsx'
import { Field } from '../../ui/fields.tsx'
import { asApiError, useLoad } from '../../ui/data.ts'

/** Conceptos: why goods come back. Supervisors create, edit, activate and deactivate them. */
export function ConceptsScreen() {
  const loaded = useLoad(() => api.reasons.list(), [])
  const [editing, setEditing] = useState<Reason | 'nuevo' | null>(null)
  const [notice, setNotice] = useState<string | null>(null)
  const [error, setError] = useState<ApiError | null>(null)
  const supervisor = isSupervisor.value
  const toggle = async (reason: Reason) => {
    setError(null)
    try {
      await api.reasons.change(reason.codigo, { activo: !reason.activo })
      setNotice(`Concepto ${reason.codigo} ${reason.activo ? 'desactivado' : 'activado'}.`)
      loaded.reload()
    } catch (failure) {
      setError(asApiError(failure))
    }
  }
  return (
    <Page
      title="Conceptos"
      subtitle="Los motivos de devolución que se eligen al registrarla."
      actions={
        supervisor &&
        editing === null && (
          <button type="button" class="principal" onClick={() => setEditing('nuevo')}>
            Nuevo concepto
          </button>
        )
      }
    >
      <Notice text={notice} />
      <ErrorNote error={loaded.error ?? error} />
      {editing !== null && (
        <ReasonForm
          reason={editing === 'nuevo' ? null : editing}
          onDone={(text) => {
            setEditing(null)
            setNotice(text)
            loaded.reload()
          }}
          onCancel={() => setEditing(null)}
        />
      )}
      {loaded.loading && !loaded.data && <Loading what="los conceptos" />}
      {loaded.data && loaded.data.length === 0 && (
        <Empty>
          No hay conceptos todavía.{' '}
          {supervisor ? 'Cree el primero con «Nuevo concepto».' : 'Pida a un supervisor que los cree.'}
        </Empty>
      )}
      {loaded.data && loaded.data.length > 0 && (
        <table>
          <thead>
            <tr>
              <th scope="col">Código</th>
              <th scope="col">Descripción</th>
              <th scope="col">Id del proveedor</th>
              <th scope="col">Estado</th>
              {supervisor && <th scope="col">Acciones</th>}
            </tr>
          </thead>
          <tbody>
            {loaded.data.map((reason) => (
              <tr key={reason.codigo} class={reason.activo ? undefined : 'inactiva'}>
                <th scope="row">{reason.codigo}</th>
                <td>{reason.descripcion}</td>
                <td>{reason.idProveedor ?? <span class="tenue">usa el código</span>}</td>
                <td>{reason.activo ? 'Activo' : 'Inactivo'}</td>
                {supervisor && (
                  <td class="acciones-fila">
                    <button
                      type="button"
                      aria-label={`Editar el concepto ${reason.codigo}`}
                      onClick={() => setEditing(reason)}
                    >
                      Editar
                    </button>
                    <button
                      type="button"
                      aria-label={`${reason.activo ? 'Desactivar' : 'Activar'} el concepto ${reason.codigo}`}
                      onClick={() => void toggle(reason)}
                    >
                      {reason.activo ? 'Desactivar' : 'Activar'}
                    </button>
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Page>
  )
}

function ReasonForm({
  reason,
  onDone,
  onCancel,
}: {
  reason: Reason | null
  onDone: (text: string) => void
  onCancel: () => void
}) {
  const [codigo, setCodigo] = useState(reason?.codigo ?? '')
  const [descripcion, setDescripcion] = useState(reason?.descripcion ?? '')
  const [idProveedor, setIdProveedor] = useState(reason?.idProveedor ?? '')
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<ApiError | null>(null)
  const submit = async (event: Event) => {
    event.preventDefault()
    if (codigo.trim() === '' || descripcion.trim() === '') {
      setError({
        message:
          codigo.trim() === ''
            ? 'Escriba el código del concepto, por ejemplo DANADO.'
            : 'Escriba la descripción del concepto, como la verá el almacén.',
      } as ApiError)
      return
    }
    setBusy(true)
    setError(null)
    try {
      const supplierId = idProveedor.trim() === '' ? null : idProveedor.trim()
      if (reason === null)
        await api.reasons.create({ codigo: codigo.trim(), descripcion: descripcion.trim(), idProveedor: supplierId })
      else await api.reasons.change(reason.codigo, { descripcion: descripcion.trim(), idProveedor: supplierId })
      onDone(reason === null ? `Concepto ${codigo.trim()} creado.` : `Concepto ${reason.codigo} guardado.`)
    } catch (failure) {
      setError(asApiError(failure))
      setBusy(false)
    }
  }
  return (
    <form class="tarjeta formulario" onSubmit={submit} aria-labelledby="titulo-concepto" noValidate>
      <h2 id="titulo-concepto">{reason === null ? 'Nuevo concepto' : `Editar el concepto ${reason.codigo}`}</h2>
      <div class="filtros">
        <Field label="Código" hint="Letras, dígitos, _ . -; no se puede cambiar después">
          {(id, hint) => (
            <input
              id={id}
              required
              maxLength={40}
              pattern="[A-Za-z0-9_.\-]+"
              aria-describedby={hint}
              disabled={reason !== null}
              value={codigo}
              onInput={(event) => setCodigo(event.currentTarget.value)}
            />
          )}
        </Field>
        <Field label="Descripción" wide>
          {(id) => (
            <input
              id={id}
              required
              maxLength={200}
              value={descripcion}
              onInput={(event) => setDescripcion(event.currentTarget.value)}
            />
          )}
        </Field>
        <Field label="Id del proveedor" hint="Opcional: el id de este motivo en el sistema del proveedor">
          {(id, hint) => (
            <input
              id={id}
              maxLength={60}
              aria-describedby={hint}
              value={idProveedor}
              onInput={(event) => setIdProveedor(event.currentTarget.value)}
            />
          )}
        </Field>
      </div>
      <ErrorNote error={error} />
      <div class="botones">
        <button type="button" onClick={onCancel} disabled={busy}>
          Cancelar
        </button>
        <button type="submit" class="principal" disabled={busy} aria-busy={busy}>
          {busy ? 'Guardando…' : 'Guardar concepto'}
        </button>
      </div>
    </form>
  )
}
