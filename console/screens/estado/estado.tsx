import type { ServiceStatus } from '../../api/types.ts'
import { api } from '../../api/client.ts'
import { dateTime, quantity } from '../../format.ts'
import { Empty, ErrorNote, Loading, Page } from '../../ui/components.tsx'
import { useLoad } from '../../ui/data.ts'

type Copy = NonNullable<ServiceStatus['copias']['ultima']>

/** What each alert in force means, and what to do about it (administracion.md, «Las alertas»). */
const ALERTS: Record<string, string> = {
  copia_fallida:
    'La última copia automática falló: revise que la carpeta de las copias (backup.dir) exista, se pueda escribir y tenga espacio.',
  copia_externa_fallida:
    'La última copia fuera del servidor falló: revise que la carpeta backup.copyTo esté montada, se pueda escribir y tenga espacio.',
  copia_externa_atrasada:
    'No hay una copia fuera del servidor reciente: revise la carpeta backup.copyTo y el resultado de su última copia, abajo.',
  disco_base_de_datos: 'Queda poco disco en la carpeta de la base de datos: libere espacio o amplíe el disco.',
  disco_copias: 'Queda poco disco en la carpeta de las copias: lleve las viejas a otra máquina o baje backup.keep.',
}

/**
 * Estado: what the administrator watches — the service, its database, the copies on this server
 * and off it, the alerts in force and the internal errors of the last day (GET operador/estado).
 */
export function StatusScreen() {
  const loaded = useLoad(() => api.status(), [])
  const status = loaded.data
  return (
    <Page
      title="Estado del servicio"
      subtitle="Cómo está el servicio, su base de datos y sus copias de seguridad."
      actions={
        <button type="button" onClick={loaded.reload}>
          Actualizar
        </button>
      }
    >
      <ErrorNote error={loaded.error} />
      {loaded.loading && !status ? (
        <Loading what="el estado" />
      ) : status ? (
        <>
          <Alerts active={status.alertas.activas} webhook={status.alertas.webhook} />
          <section aria-labelledby="estado-copias">
            <h2 id="estado-copias">Copias de seguridad</h2>
            <table>
              <thead>
                <tr>
                  <th scope="col">Dónde</th>
                  <th scope="col">Carpeta</th>
                  <th scope="col">Última copia</th>
                  <th scope="col">Resultado</th>
                  <th scope="col" class="num">
                    Tamaño
                  </th>
                  <th scope="col" class="num">
                    Tardó
                  </th>
                  <th scope="col" class="num">
                    Disco libre
                  </th>
                </tr>
              </thead>
              <tbody>
                <CopyRow
                  where="En este servidor"
                  folder={status.copias.carpeta}
                  copy={status.copias.ultima}
                  free={status.copias.disco_libre_bytes}
                />
                {status.copias.fuera_del_servidor === null ? (
                  <tr>
                    <th scope="row">Fuera del servidor</th>
                    <td colSpan={6}>
                      Sin configurar: ponga en backup.copyTo una carpeta de otro equipo (un recurso compartido, un NAS o
                      un disco USB).
                    </td>
                  </tr>
                ) : (
                  <CopyRow
                    where="Fuera del servidor"
                    folder={status.copias.fuera_del_servidor.carpeta}
                    copy={status.copias.fuera_del_servidor.ultima}
                    free={status.copias.fuera_del_servidor.disco_libre_bytes}
                  />
                )}
              </tbody>
            </table>
            <p>
              {status.copias.automaticas
                ? `Próxima copia automática: ${dateTime(status.copias.proxima)}.`
                : 'Las copias automáticas están desactivadas (backup.everyHours = 0): haga copias con manifiesto backup.'}
              {status.copias.fuera_del_servidor?.atrasada &&
                ` La copia más reciente fuera del servidor es ${status.copias.fuera_del_servidor.mas_reciente === null ? 'ninguna' : `del ${dateTime(status.copias.fuera_del_servidor.mas_reciente)}`}: está atrasada.`}
            </p>
          </section>
          <section aria-labelledby="estado-servicio">
            <h2 id="estado-servicio">Servicio y base de datos</h2>
            <dl class="resumen">
              <dt>Versión</dt>
              <dd>{status.servicio.version}</dd>
              <dt>En marcha desde</dt>
              <dd>{dateTime(status.servicio.iniciado_en)}</dd>
              <dt>Contrato con el cliente</dt>
              <dd>{status.servicio.contrato_cliente}</dd>
              <dt>Base de datos</dt>
              <dd>
                {status.base_de_datos.ruta} ({size(status.base_de_datos.tamano_bytes)})
              </dd>
              <dt>Disco libre en su carpeta</dt>
              <dd>
                {size(status.base_de_datos.disco_libre_bytes)}
                {status.base_de_datos.disco_bajo && ' — poco espacio'}
              </dd>
            </dl>
          </section>
          <section aria-labelledby="estado-errores">
            <h2 id="estado-errores">Errores internos de las últimas 24 horas</h2>
            {status.errores_internos.ultimas_24_horas === 0 ? (
              <Empty>Ninguno.</Empty>
            ) : (
              <table>
                <thead>
                  <tr>
                    <th scope="col">Hora</th>
                    <th scope="col">Tipo</th>
                    <th scope="col">Mensaje</th>
                    <th scope="col">Solicitud</th>
                  </tr>
                </thead>
                <tbody>
                  {status.errores_internos.recientes.map((error, index) => (
                    <tr key={index}>
                      <td>{dateTime(error.hora)}</td>
                      <td>{error.tipo}</td>
                      <td>{error.mensaje}</td>
                      <td>{error.request_id ?? '—'}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </section>
        </>
      ) : null}
    </Page>
  )
}

function Alerts({ active, webhook }: { active: string[]; webhook: boolean }) {
  if (active.length === 0)
    return (
      <p class="aviso">
        Sin alertas activas.{webhook ? '' : ' (No hay alerts.webhookUrl: las alertas solo quedan en el registro.)'}
      </p>
    )
  return (
    <section aria-labelledby="estado-alertas" class="aviso error" role="alert">
      <h2 id="estado-alertas">Alertas activas</h2>
      <ul>
        {active.map((kind) => (
          <li key={kind}>{ALERTS[kind] ?? kind}</li>
        ))}
      </ul>
    </section>
  )
}

function CopyRow({
  where,
  folder,
  copy,
  free,
}: {
  where: string
  folder: string
  copy: Copy | null
  free: number | null
}) {
  return (
    <tr>
      <th scope="row">{where}</th>
      <td>{folder}</td>
      <td>{copy === null ? 'Ninguna todavía' : dateTime(copy.hora)}</td>
      <td>{copy === null ? '—' : copy.resultado === 'ok' ? 'Bien' : `Falló: ${copy.error ?? ''}`}</td>
      <td class="num">{size(copy?.tamano_bytes ?? null)}</td>
      <td class="num">{copy?.duracion_segundos == null ? '—' : `${quantity(copy.duracion_segundos)} s`}</td>
      <td class="num">{size(free)}</td>
    </tr>
  )
}

/** `2.6 GB`, `812 MB`: what an administrator reads for a file or a disk. */
function size(bytes: number | null): string {
  if (bytes === null) return '—'
  const units = ['bytes', 'KB', 'MB', 'GB', 'TB']
  let value = bytes
  let unit = 0
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024
    unit++
  }
  return `${unit === 0 ? value : value.toFixed(value >= 100 ? 0 : 1)} ${units[unit]}`
}
