import Type, { type Static, type TObject, type TProperties, type TSchema } from 'typebox'
import {
  INVOICE_FIELDS,
  LINE_FIELDS,
  LINES_FIELD,
  MANIFEST_NUMBER_PATTERN,
  MAX_AMOUNT,
  MAX_FACTOR,
  MAX_TEXT_LENGTH,
  type FieldSpec,
} from '../invoices/invoice-fields.ts'

const NUMERIC = '^-?(0|[1-9][0-9]*)(\\.[0-9]+)?([eE][-+]?[0-9]+)?$'
const NON_NEGATIVE = '^(0|[1-9][0-9]*)(\\.[0-9]+)?([eE][-+]?[0-9]+)?$'
/** At most 15 digits: always a safe integer. */
const INTEGER = '^-?(0|[1-9][0-9]{0,14})$'
const FACTOR = '^[1-9][0-9]{0,6}$'
const SAFE = { minimum: -Number.MAX_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER }

/** What each kind of field accepts, in the words of step 3's messages. */
const EXPECTED = {
  text: (maxLength: number) => `texto de hasta ${maxLength} caracteres, o un número entero exacto de hasta 15 dígitos`,
  digits: 'el número del manifiesto: de 1 a 20 dígitos, sin letras, espacios ni signos',
  integer: 'un entero exacto de hasta 15 dígitos',
  factor: `un entero de 1 a ${MAX_FACTOR} (unidades por caja)`,
  number: `un número de -${MAX_AMOUNT} a ${MAX_AMOUNT}`,
  amount: `un número de 0 a ${MAX_AMOUNT}`,
}

/** A numeric string whose number lies in [min, max] (a pattern cannot bound `1e400`). */
const numericText = (pattern: string, min: number, max: number) =>
  Type.Refine(Type.String({ pattern }), (text) => {
    const value = Number(text)
    return value >= min && value <= max
  })

/**
 * The accepted types of one field (contracts §3 and §9): string fields also take a JSON number
 * that is an exact (safe) integer, kept as its decimal text; numeric fields also take a numeric
 * string; every number is finite and within its limits. Required: null and "" are missing.
 * Each kind's first alternative is also written out in `plainForm` (src/intake/plain-invoice.ts,
 * step 3's quick yes): a limit added here goes there too.
 */
function fieldSchema(spec: FieldSpec<string>): TSchema {
  const options = { ...(spec.description ? { description: spec.description } : {}), errorMessage: expectedOf(spec) }
  const minimum = spec.nonNegative ? 0 : -MAX_AMOUNT
  let accepted: TSchema[]
  if (spec.kind === 'text' && spec.digits) {
    accepted = [
      Type.String({ pattern: MANIFEST_NUMBER_PATTERN }),
      Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER }),
    ]
  } else if (spec.kind === 'text') {
    accepted = [
      Type.String({ ...(spec.required ? { minLength: 1 } : {}), maxLength: spec.maxLength ?? MAX_TEXT_LENGTH }),
      Type.Integer(SAFE),
    ]
  } else if (spec.kind === 'integer') {
    accepted = [Type.Integer(SAFE), Type.String({ pattern: INTEGER })]
  } else if (spec.kind === 'factor') {
    accepted = [Type.Integer({ minimum: 1, maximum: MAX_FACTOR }), numericText(FACTOR, 1, MAX_FACTOR)]
  } else {
    accepted = [
      Type.Number({ minimum, maximum: MAX_AMOUNT }),
      numericText(spec.nonNegative ? NON_NEGATIVE : NUMERIC, minimum, MAX_AMOUNT),
    ]
  }
  if (spec.required) return Type.Union(accepted, options)
  return Type.Optional(Type.Union([...accepted, Type.Null()], options))
}

function expectedOf(spec: FieldSpec<string>): string {
  if (spec.kind === 'text') return spec.digits ? EXPECTED.digits : EXPECTED.text(spec.maxLength ?? MAX_TEXT_LENGTH)
  return EXPECTED[spec.kind === 'number' && spec.nonNegative ? 'amount' : spec.kind]
}

function objectSchema(
  fields: ReadonlyArray<FieldSpec<string>>,
  extra: Record<string, TSchema>,
  description: string,
  errorMessage?: Record<string, string>,
) {
  const properties: Record<string, TSchema> = {}
  for (const spec of fields) properties[spec.name] = fieldSchema(spec)
  // Unknown fields are allowed and kept: nothing the client sends is lost.
  return Type.Object(
    { ...properties, ...extra },
    { additionalProperties: true, description, ...(errorMessage ? { errorMessage } : {}) },
  )
}

export const InvoiceLineSchema = objectSchema(
  LINE_FIELDS,
  {},
  'Línea de factura (interface-v1 §2.2); se aceptan y conservan campos adicionales',
  {
    type: 'debe ser un objeto JSON',
  },
)

export const InvoiceSchema = objectSchema(
  INVOICE_FIELDS,
  {
    [LINES_FIELD]: Type.Array(InvoiceLineSchema, {
      minItems: 1,
      errorMessage: { minItems: 'no puede estar vacío', type: 'debe ser un arreglo de líneas' },
    }),
  },
  'Factura (interface-v1 §2.1); se aceptan y conservan campos adicionales',
)

export const BatchSchema = Type.Array(InvoiceSchema, {
  minItems: 1,
  description: 'Lote: arreglo JSON no vacío de facturas',
})

// ---- Answers (interface-v1 §4.1) ----

export const Resumen = Type.Object({
  recibidas: Type.Integer(),
  insertadas: Type.Integer(),
  actualizadas: Type.Integer(),
  sin_cambios: Type.Integer(),
  pendientes_revision: Type.Integer(),
  rechazadas: Type.Integer(),
})

const RejectionResumen = Type.Object({
  total_recibidas: Type.Integer(),
  total_rechazadas: Type.Integer(),
  total_validas: Type.Integer(),
  insertadas: Type.Literal(0),
})

export type Resumen = Static<typeof Resumen>

export const Advertencia = Type.Object({
  factura: Type.String(),
  manifiesto: Type.String(),
  campos_con_cambio: Type.Array(Type.String()),
  mensaje: Type.String(),
})
export type Advertencia = Static<typeof Advertencia>

export const BatchProcessed = Type.Object({
  success: Type.Literal(true),
  message: Type.String(),
  batch_uuid: Type.String(),
  manifiestos: Type.Array(Type.String()),
  resumen: Resumen,
  advertencias: Type.Optional(Type.Array(Advertencia)),
})
export type BatchProcessed = Static<typeof BatchProcessed>

export const BatchDuplicate = Type.Object({
  success: Type.Literal(true),
  message: Type.String({ description: 'El lote ya fue procesado hoy' }),
  batch_uuid: Type.String({ description: 'El del procesamiento original' }),
  resumen: Resumen,
})
export type BatchDuplicate = Static<typeof BatchDuplicate>

export const Step8Reason = Type.Union([
  Type.Literal('ALMACENES_DESCONOCIDOS'),
  Type.Literal('MANIFIESTO_CERRADO'),
  Type.Literal('FACTURAS_DUPLICADAS_EN_OTRO_MANIFIESTO'),
  // Only with intake.reissue.action "reject"; interface-v1 does not know it.
  Type.Literal('FACTURAS_DUPLICADAS_EXACTAS'),
  // Only with clientContract "v2": an invoice already stored in the same manifest.
  Type.Literal('FACTURAS_YA_EXISTENTES'),
])
export type Step8Reason = Static<typeof Step8Reason>

export const RejectedManifest = Type.Object(
  {
    manifiesto: Type.String(),
    total_facturas: Type.Integer(),
    motivo: Step8Reason,
    mensaje: Type.Optional(Type.String()),
    almacenes_desconocidos: Type.Optional(
      Type.Array(
        Type.Object({ almacen: Type.String(), facturas: Type.Array(Type.String()), cantidad: Type.Integer() }),
      ),
    ),
    facturas_duplicadas: Type.Optional(
      Type.Array(Type.Object({ factura: Type.String(), manifiesto_existente: Type.String() })),
    ),
    facturas_duplicadas_exactas: Type.Optional(
      Type.Array(
        Type.Object({
          factura: Type.String({ description: 'La factura nueva' }),
          identica_a: Type.String({ description: 'La factura ya registrada que repite' }),
          manifiesto_original: Type.String(),
          fecha_original: Type.String({ description: 'FechaFactura de la ya registrada, YYYY-MM-DD' }),
          cliente: Type.String(),
          total: Type.Number(),
          dias_diferencia: Type.Integer(),
        }),
        {
          description:
            'FACTURAS_DUPLICADAS_EXACTAS (solo con intake.reissue.action "reject"): cada posible re-emisión y la factura que repite',
        },
      ),
    ),
    facturas_existentes: Type.Optional(
      Type.Array(Type.Object({ factura: Type.String() }), {
        description:
          'FACTURAS_YA_EXISTENTES (solo contrato v2): las facturas que ya están registradas en este manifiesto; no se tocaron',
      }),
    ),
  },
  { description: 'Manifiesto rechazado en el paso 8' },
)
export type RejectedManifest = Static<typeof RejectedManifest>

export const BatchManifestsRejected = Type.Object({
  success: Type.Literal(false),
  motivo: Type.Union([...Step8Reason.anyOf, Type.Literal('MOTIVOS_MIXTOS')]),
  message: Type.String(),
  batch_uuid: Type.String(),
  manifiestos: Type.Array(Type.String()),
  resumen: Resumen,
  manifiestos_rechazados: Type.Array(RejectedManifest),
  advertencias: Type.Optional(Type.Array(Advertencia)),
})

/** Steps 4 and 5 refuse the whole batch with the same head; `fields` are what each adds. */
function batchRefusal<Fields extends Record<string, TSchema>>(motivo: string, fields: Fields) {
  return Type.Object({
    success: Type.Literal(false),
    motivo: Type.Literal(motivo),
    message: Type.String(),
    accion_requerida: Type.String(),
    resumen: RejectionResumen,
    ...fields,
  })
}

/** Contract v2 names the valid manifests of a refused batch with one label: their numbers, to resend apart. */
const ValidManifestNumbers = Type.Array(Type.String(), {
  description: 'Contrato v2: los manifiestos válidos del lote (no se insertaron); reenvíelos en un lote aparte',
})

const DateRejectedManifests = Type.Array(
  Type.Object({
    manifiesto: Type.String(),
    motivo: Type.Union([
      Type.Literal('FECHAS_MEZCLADAS'),
      Type.Literal('FECHA_FACTURA_INVALIDA'),
      Type.Literal('FECHA_FACTURA_FUTURA'),
      Type.Literal('FECHA_FACTURA_DEMASIADO_ANTIGUA'),
    ]),
    detalle: Type.Object({ instruccion: Type.String() }, { additionalProperties: true }),
    total_facturas: Type.Integer(),
    facturas: Type.Array(Type.String()),
  }),
)

export const BatchDatesInvalid = batchRefusal('FECHAS_INVALIDAS', {
  manifiestos_rechazados: DateRejectedManifests,
  manifiestos_validos: Type.Array(Type.Object({ manifiesto: Type.String(), total_facturas: Type.Integer() }), {
    description: 'Contrato v1',
  }),
})

export const BatchDatesInvalidV2 = batchRefusal('FECHAS_INVALIDAS', {
  manifiestos_rechazados: DateRejectedManifests,
  manifiestos: ValidManifestNumbers,
})

const OldRejectedManifests = Type.Array(
  Type.Object({
    manifiesto: Type.String(),
    fecha_original: Type.String(),
    fecha_intento: Type.String(),
    total_facturas: Type.Integer(),
    facturas_afectadas: Type.Array(Type.String()),
    instruccion: Type.String(),
  }),
)

export const BatchOldManifests = batchRefusal('MANIFIESTOS_FECHA_INVALIDA', {
  manifiestos_rechazados: OldRejectedManifests,
  manifiestos_no_afectados: Type.Array(
    Type.Object({
      manifiesto: Type.String(),
      total_facturas: Type.Integer(),
      facturas: Type.Array(Type.String()),
      nota: Type.String(),
    }),
    { description: 'Contrato v1' },
  ),
})

export const BatchOldManifestsV2 = batchRefusal('MANIFIESTOS_FECHA_INVALIDA', {
  manifiestos_rechazados: OldRejectedManifests,
  manifiestos: ValidManifestNumbers,
})

export const BatchStructureInvalid = Type.Object({
  success: Type.Literal(false),
  message: Type.String(),
  errores: Type.Array(Type.String()),
})

export const BatchBodyInvalid = Type.Object({ success: Type.Literal(false), message: Type.String() })

export const BatchInternalError = Type.Object({
  success: Type.Literal(false),
  message: Type.String(),
  batch_uuid: Type.String(),
})

// ---- The dry run (`validar`): insertar's answers, marked ----

const SIMULACION = Type.Literal(true, { description: 'Simulación: no se guardó nada' })
const NO_BATCH = Type.Null({
  description: 'null: una simulación no crea lote (insertar daría aquí el uuid del lote nuevo)',
})

/** `insertar`'s answer as `validar` gives it: the same fields plus `simulacion: true`. */
function simulated<Properties extends TProperties>(answer: TObject<Properties>) {
  return Type.Object({ ...answer.properties, simulacion: SIMULACION })
}

/** …and with a null `batch_uuid`, for the answers where `insertar` creates a batch. */
function simulatedWithoutBatch<Properties extends TProperties & { batch_uuid: TSchema }>(answer: TObject<Properties>) {
  const { batch_uuid: _created, ...others } = answer.properties
  return Type.Object({ ...others, batch_uuid: NO_BATCH, simulacion: SIMULACION })
}

export const SimulatedProcessed = simulatedWithoutBatch(BatchProcessed)
export type SimulatedProcessed = Static<typeof SimulatedProcessed>
/** The duplicate answer keeps the original's batch_uuid: that batch exists. */
export const SimulatedDuplicate = simulated(BatchDuplicate)
export type SimulatedDuplicate = Static<typeof SimulatedDuplicate>
export const SimulatedManifestsRejected = simulatedWithoutBatch(BatchManifestsRejected)
export const SimulatedDatesInvalid = simulated(BatchDatesInvalid)
export const SimulatedOldManifests = simulated(BatchOldManifests)
export const SimulatedStructureInvalid = simulated(BatchStructureInvalid)
export const SimulatedBodyInvalid = simulated(BatchBodyInvalid)
export const SimulatedInternalError = simulatedWithoutBatch(BatchInternalError)
