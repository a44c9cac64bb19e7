import Type from 'typebox'
import type { ResponseSpec, Route } from './route.ts'

/** Every error body: `{success:false, message, ...}` (contract §3). */
export const ErrorBody = Type.Object(
  { success: Type.Literal(false), message: Type.String() },
  { additionalProperties: true, description: 'Respuesta de error' },
)

export const errorResponse = (description: string): ResponseSpec => ({ description, schema: ErrorBody })

/**
 * Every answer a route can give: the ones the pipeline gives before its handler runs (limits,
 * keys, input) and the route's own. The OpenAPI document lists these, and the tests check every
 * answer against them.
 */
export function documentedAnswers(route: Route): Record<number, ResponseSpec> {
  const answers: Record<number, ResponseSpec> = {
    429: errorResponse('Límite de solicitudes por minuto excedido (ver Retry-After)'),
    500: errorResponse('Error interno: se registró y se avisó al equipo técnico; puede reintentar más tarde'),
  }
  const changes = route.method !== 'GET'
  if (route.access === 'public') {
    answers[401] = errorResponse('Clave enviada en la URL (debe ir en el encabezado)')
  } else {
    answers[401] =
      route.access === 'client'
        ? errorResponse('ApiKey ausente o inválida, o enviada en la URL')
        : route.access === 'person'
          ? errorResponse('Sin sesión, o la sesión terminó')
          : errorResponse('Sin sesión ni OperatorKey, sesión terminada, u OperatorKey inválida (una ApiKey del cliente no abre esta API)')
    answers[503] = errorResponse(`El servidor no tiene clave configurada${changes ? ', o el archivo de la base de datos ya no está en su ruta' : ''}`)
  }
  if (route.access === 'public' && changes) answers[503] = errorResponse('El archivo de la base de datos ya no está en su ruta')
  if (route.access === 'operator' || route.access === 'person') {
    answers[403] = errorResponse('Su rol no permite esta operación, o un cambio con sesión llegó desde otro origen')
  }
  if (route.params) answers[404] = errorResponse('La ruta no nombra un recurso que exista')
  // Any route refuses a query parameter given twice; the rest depends on the route's input.
  answers[422] = errorResponse(
    route.access === 'operator' && changes ? 'Solicitud inválida, o falta el encabezado Operador' : route.query || route.headers || route.body ? 'Parámetros, encabezados o cuerpo inválidos' : 'Un parámetro de consulta repetido',
  )
  if (route.body) {
    answers[408] = errorResponse('El cuerpo no terminó de llegar a tiempo (server.bodyTimeoutSeconds)')
    answers[413] = errorResponse(route.body.raw ? 'El cuerpo excede server.maxBodyMB' : 'El cuerpo excede 1 MB')
  }
  return { ...answers, ...route.responses }
}
