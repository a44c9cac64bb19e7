import Type from 'typebox'

/** Every error body: `{success:false, message, ...}` (contract §3). */
export const ErrorBody = Type.Object(
  { success: Type.Literal(false), message: Type.String() },
  { additionalProperties: true, description: 'Respuesta de error' },
)

export const errorResponse = (description: string) => ({ description, schema: ErrorBody })

/** Answers every protected route can give before its handler runs. */
export const PROTECTED_ERRORS = {
  401: errorResponse('ApiKey ausente o inválida, o enviada en la URL'),
  429: errorResponse('Límite de solicitudes por minuto excedido (ver Retry-After)'),
  503: errorResponse('El servidor no tiene clave configurada'),
}

export const PUBLIC_ERRORS = {
  401: errorResponse('Clave enviada en la URL (debe ir en el encabezado)'),
  429: errorResponse('Límite de solicitudes por minuto excedido (ver Retry-After)'),
}

/** Answers every operator route can give before its handler runs. */
export const OPERATOR_ERRORS = {
  401: errorResponse('OperatorKey ausente o inválida (una ApiKey del cliente no abre esta API)'),
  422: errorResponse('Falta el encabezado Operador en un cambio, o la solicitud es inválida'),
  429: errorResponse('Límite de solicitudes por minuto excedido (ver Retry-After)'),
  503: errorResponse('El servidor no tiene OperatorKey configurada'),
}
