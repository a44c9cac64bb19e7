import Type from 'typebox'
import { INTERNAL_ERROR_MESSAGE } from './error-response.ts'
import type { ResponseSpec, Route } from './route.ts'

/** Every error body: `{success:false, message, ...}` (contract §3). */
export const ErrorBody = Type.Object(
  { success: Type.Literal(false), message: Type.String() },
  { additionalProperties: true, description: 'Respuesta de error' },
)

/** An error answer; with `message`, the reference shows it as the example of that status. */
export const errorResponse = (description: string, message?: string): ResponseSpec => ({
  description,
  schema: ErrorBody,
  ...(message === undefined
    ? {}
    : { examples: { error: { summary: description, value: { success: false, message } } } }),
})

const KEY_IN_URL = 'La clave no debe enviarse en la URL: envíela en el encabezado ApiKey (u OperatorKey).'
const REPEATED_PARAMETER = 'El parámetro de consulta pagina aparece más de una vez: envíelo una sola vez.'

/**
 * Every answer a route can give: the ones the pipeline gives before its handler runs (limits,
 * keys, input) and the route's own. The OpenAPI document lists these, and the tests check every
 * answer against them.
 */
export function documentedAnswers(route: Route): Record<number, ResponseSpec> {
  const answers: Record<number, ResponseSpec> = {
    429: errorResponse(
      'Límite de solicitudes por minuto excedido (ver Retry-After)',
      'Demasiadas solicitudes: el límite es 5 por minuto. Intente de nuevo en 60 segundos.',
    ),
    500: errorResponse(
      'Error interno: se registró y se avisó al equipo técnico; puede reintentar más tarde',
      INTERNAL_ERROR_MESSAGE,
    ),
  }
  const changes = route.method !== 'GET'
  if (route.access === 'public') {
    answers[401] = errorResponse('Clave enviada en la URL (debe ir en el encabezado)', KEY_IN_URL)
  } else {
    answers[401] =
      route.access === 'client'
        ? errorResponse(
            'ApiKey ausente o inválida, o enviada en la URL',
            'ApiKey requerido: envíe la clave en el encabezado ApiKey.',
          )
        : route.access === 'person'
          ? errorResponse('Sin sesión, o la sesión terminó')
          : errorResponse(
              'Sin sesión ni OperatorKey, sesión terminada, u OperatorKey inválida (una ApiKey del cliente no abre esta API)',
            )
    answers[503] = errorResponse(
      `El servidor no tiene clave configurada${changes ? ', o el archivo de la base de datos ya no está en su ruta' : ''}`,
      route.access === 'client'
        ? 'El servidor no está configurado para recibir solicitudes de la API (ApiKey no configurada).'
        : undefined,
    )
  }
  if (route.access === 'public' && changes)
    answers[503] = errorResponse('El archivo de la base de datos ya no está en su ruta')
  if (route.access === 'operator' || route.access === 'person') {
    answers[403] = errorResponse('Su rol no permite esta operación, o un cambio con sesión llegó desde otro origen')
  }
  if (route.params) answers[404] = errorResponse('La ruta no nombra un recurso que exista')
  // Any route refuses a query parameter given twice; the rest depends on the route's input.
  answers[422] = errorResponse(
    route.access === 'operator' && changes
      ? 'Solicitud inválida, o falta el encabezado Operador'
      : route.query || route.headers || route.body
        ? 'Parámetros, encabezados o cuerpo inválidos'
        : 'Un parámetro de consulta repetido',
    REPEATED_PARAMETER,
  )
  if (route.body) {
    answers[408] = errorResponse(
      'El cuerpo no terminó de llegar a tiempo (server.bodyTimeoutSeconds)',
      'El cuerpo de la solicitud no terminó de llegar en 120 segundos; revise la conexión y reenvíe.',
    )
    answers[413] = route.body.file
      ? errorResponse(
          'El archivo excede por mucho su máximo: no se leyó',
          'El cuerpo de la solicitud (12.0 MB) excede el máximo permitido de 10.0 MB.',
        )
      : errorResponse(
          route.body.raw
            ? 'El cuerpo excede server.maxBodyMB (descomprimido, si llegó con gzip)'
            : 'El cuerpo excede 1 MB',
          `El cuerpo de la solicitud excede el máximo permitido de ${route.body.raw ? 128 : 1} MB.`,
        )
    answers[415] =
      route.body.raw && !route.body.file
        ? errorResponse(
            'Content-Encoding distinto de gzip (o identity): solo se acepta el lote sin comprimir o comprimido con gzip',
            'El cuerpo llegó con Content-Encoding: br, que el servicio no acepta. Envíe el lote sin comprimir (sin Content-Encoding) o comprimido una sola vez con gzip (Content-Encoding: gzip); br, deflate y compress no se aceptan.',
          )
        : errorResponse('Cuerpo con Content-Encoding (esta ruta solo acepta JSON sin comprimir)')
  }
  return { ...answers, ...route.responses }
}
