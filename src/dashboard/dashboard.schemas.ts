import Type, { type Static } from 'typebox'
import { Resumen } from '../intake/intake.schemas.ts'

/** Today at a glance for the actor's warehouses: the console's first screen (Inicio). */
export const DashboardView = Type.Object({
  fecha: Type.String({ description: 'Hoy en Honduras, YYYY-MM-DD' }),
  lotes: Type.Union(
    [
      Type.Object({
        cantidad: Type.Integer({
          minimum: 0,
          description: 'Lotes recibidos hoy (de todos los almacenes: un lote no es de un almacén)',
        }),
        de_sus_almacenes: Type.Integer({
          minimum: 0,
          description: 'Lotes de hoy que trajeron facturas de sus almacenes',
        }),
        resumen: Type.Object(Resumen.properties, { description: 'Suma de los resúmenes de los lotes de hoy' }),
        fallidos: Type.Array(
          Type.Object({
            batch_uuid: Type.String(),
            recibido_en: Type.String(),
            fallo: Type.Union([Type.String(), Type.Null()]),
          }),
          { description: 'Lotes de hoy que fallaron al procesarse' },
        ),
        con_rechazos: Type.Array(
          Type.Object({ batch_uuid: Type.String(), recibido_en: Type.String(), http_status: Type.Integer() }),
          {
            description:
              'Lotes de hoy procesados con manifiestos rechazados, o rechazados completos con el contrato v2 (respondidos con 422)',
          },
        ),
      }),
      Type.Null(),
    ],
    { description: 'null si su rol no permite consultar los lotes' },
  ),
  conflictos_pendientes: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()], {
    description: 'null si su rol no permite decidir conflictos',
  }),
  devoluciones_pendientes: Type.Integer({ minimum: 0, description: 'Devoluciones pendientes de aprobación' }),
  devoluciones_pendientes_importe: Type.Number({ description: 'Suma de sus totales' }),
  recibido_hoy: Type.Object(
    { facturas: Type.Integer({ minimum: 0 }), importe: Type.Number() },
    {
      description:
        'Facturas de sus almacenes que llegaron hoy (sin las anuladas como re-emisión) y la suma de su Total: lo facturado del día',
    },
  ),
  reemisiones_pendientes: Type.Integer({ minimum: 0, description: 'Posibles re-emisiones sin decidir' }),
  manifiestos_abiertos: Type.Object({
    cantidad: Type.Integer({ minimum: 0 }),
    mas_antiguo: Type.Union([
      Type.Object({
        numero: Type.String(),
        fecha_ingreso: Type.String({ description: 'YYYY-MM-DD HH:mm:ss, hora de Honduras' }),
        dias: Type.Integer({ minimum: 0, description: 'Días desde el día de su ingreso hasta hoy' }),
      }),
      Type.Null(),
    ]),
  }),
  plazos_que_vencen_hoy: Type.Array(
    Type.Object({
      numero: Type.String(),
      plazo_devoluciones: Type.String({ description: 'YYYY-MM-DD 23:59:59, hora de Honduras' }),
      devoluciones_pendientes: Type.Integer({ minimum: 0 }),
    }),
    { description: 'Manifiestos abiertos cuyo plazo de devoluciones termina hoy' },
  ),
  liquidacion: Type.Object(
    {
      por_depositar: Type.Object(
        {
          monto: Type.Number({ description: 'L: Σ de lo que falta depositar en sus partes de manifiestos abiertos' }),
          manifiestos: Type.Integer({ minimum: 0, description: 'Manifiestos abiertos a los que les falta dinero' }),
        },
        { description: 'GET manifiestos?liquidacion=pendiente&orden=-diferencia' },
      ),
      listos_para_cerrar: Type.Integer({
        minimum: 0,
        description: 'Manifiestos abiertos liquidados en sus almacenes: GET manifiestos?liquidacion=lista',
      }),
      depositos_hoy: Type.Object(
        { cantidad: Type.Integer({ minimum: 0 }), monto: Type.Number() },
        { description: 'Depósitos activos registrados hoy en sus almacenes: GET depositos?registrado=hoy' },
      ),
      por_liquidar_por_antiguedad: Type.Array(
        Type.Object({
          desde_dias: Type.Integer({ minimum: 0 }),
          hasta_dias: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()], {
            description: 'null: sin límite (más de 15 días)',
          }),
          manifiestos: Type.Integer({ minimum: 0 }),
          por_depositar: Type.Number({ description: 'L que les falta depositar' }),
        }),
        {
          description:
            'Manifiestos abiertos sin liquidar por días desde su ingreso: 0–2, 3–7, 8–15 y más de 15 (GET manifiestos?liquidacion=pendiente&desde=&hasta=)',
        },
      ),
    },
    {
      description:
        'El dinero de sus almacenes (issue 40): lo que falta depositar, lo listo para cerrar, lo depositado hoy',
    },
  ),
})
export type DashboardView = Static<typeof DashboardView>

/** What waits for the person: the console's navigation shows it beside Devoluciones and Conflictos. */
export const PendingCounts = Type.Object({
  devoluciones: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()], {
    description: 'Devoluciones pendientes de aprobar en sus almacenes; null si su rol no las aprueba',
  }),
  conflictos: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()], {
    description: 'Conflictos y posibles re-emisiones por decidir; null si su rol no los decide',
  }),
})
export type PendingCounts = Static<typeof PendingCounts>
