import Type from 'typebox'

export const PingOk = Type.Object({
  success: Type.Literal(true),
  status: Type.Literal('ok'),
  service: Type.Literal('manifiesto'),
  version: Type.String(),
  timestamp: Type.String({ description: 'Fecha y hora del servidor, ISO 8601 con desplazamiento de Honduras' }),
  database: Type.Literal('ok'),
})

export const PingDown = Type.Object({
  success: Type.Literal(false),
  status: Type.Literal('error'),
  service: Type.Literal('manifiesto'),
  version: Type.String(),
  timestamp: Type.String(),
  database: Type.Literal('error'),
  message: Type.String(),
})
