import Type from 'typebox'

export const ManifestNumberParams = Type.Object({
  numero: Type.String({ pattern: '^[0-9]+$', description: 'NumeroManifiesto, solo dígitos' }),
})

export const ManifestStatus = Type.Object({
  success: Type.Literal(true),
  manifiesto: Type.String(),
  estado: Type.Union([Type.Literal('imported'), Type.Literal('closed')]),
  resumen: Type.Object({
    total_facturas: Type.Integer({ minimum: 0 }),
    total_importe: Type.Number({ description: 'Suma de Total de las facturas, redondeada a centavos' }),
    fecha_ingreso: Type.String({ description: 'Creación del manifiesto, hora de Honduras, YYYY-MM-DD HH:mm:ss' }),
  }),
})
