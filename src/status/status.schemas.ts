import Type, { type Static } from 'typebox'

const Bytes = Type.Integer({ minimum: 0, description: 'bytes' })
const FreeBytes = Type.Union([Bytes, Type.Null()], {
  description: 'bytes libres para el servicio; null si no se pudo leer',
})
const LocalTime = Type.String({ description: 'Hora de Honduras, YYYY-MM-DD HH:mm:ss' })

/** A copy tried (or, none tried since the start, the newest in its folder). */
const CopyOutcome = Type.Object({
  hora: LocalTime,
  archivo: Type.String(),
  tamano_bytes: Type.Union([Bytes, Type.Null()]),
  resultado: Type.Union([Type.Literal('ok'), Type.Literal('error')]),
  error: Type.Union([Type.String(), Type.Null()]),
  duracion_segundos: Type.Union([Type.Number({ minimum: 0 }), Type.Null()], {
    description:
      'cuánto tardó (escribirla y verificarla); null si es la más nueva de la carpeta, no un intento de este arranque',
  }),
})

export const ServiceStatus = Type.Object({
  servicio: Type.Object({
    version: Type.String(),
    iniciado_en: LocalTime,
    activo_segundos: Type.Integer({ minimum: 0 }),
    hora_servidor: Type.String({ description: 'ISO 8601 con el desplazamiento de Honduras' }),
    contrato_cliente: Type.Union([Type.Literal('v1'), Type.Literal('v2')], {
      description: 'El contrato activo con el sistema del proveedor (clientContract)',
    }),
  }),
  base_de_datos: Type.Object({
    ruta: Type.String(),
    tamano_bytes: Type.Union([Bytes, Type.Null()]),
    wal_bytes: Type.Union([Bytes, Type.Null()], {
      description: 'el registro de escritura anticipada (-wal), null si no existe',
    }),
    disco_libre_bytes: FreeBytes,
    disco_bajo: Type.Boolean({ description: 'menos libre que alerts.minFreeDiskMB' }),
  }),
  lotes: Type.Object({
    ultimo: Type.Union([
      Type.Object({
        batch_uuid: Type.String(),
        recibido_en: LocalTime,
        estado: Type.Union([Type.Literal('received'), Type.Literal('processed'), Type.Literal('failed')]),
      }),
      Type.Null(),
    ]),
    hoy: Type.Integer({ minimum: 0 }),
    fallidos_hoy: Type.Integer({ minimum: 0 }),
  }),
  pendientes: Type.Object({
    conflictos: Type.Integer({ minimum: 0 }),
    devoluciones: Type.Integer({ minimum: 0 }),
    reemisiones: Type.Integer({ minimum: 0 }),
  }),
  copias: Type.Object({
    automaticas: Type.Boolean({ description: 'false con backup.everyHours = 0' }),
    carpeta: Type.String(),
    disco_libre_bytes: FreeBytes,
    disco_bajo: Type.Boolean(),
    ultima: Type.Union([CopyOutcome, Type.Null()], { description: 'la última copia local (backup.dir)' }),
    proxima: Type.Union([LocalTime, Type.Null()]),
    fuera_del_servidor: Type.Union(
      [
        Type.Object({
          carpeta: Type.String({ description: 'backup.copyTo' }),
          disco_libre_bytes: FreeBytes,
          ultima: Type.Union([CopyOutcome, Type.Null()], { description: 'la última copia llevada a backup.copyTo' }),
          mas_reciente: Type.Union([LocalTime, Type.Null()], {
            description: 'la hora de la copia más nueva que hay en backup.copyTo',
          }),
          atrasada: Type.Boolean({
            description:
              'la más nueva tiene más del doble de backup.everyHours (o no hay ninguna): alerta copia_externa_atrasada',
          }),
        }),
        Type.Null(),
      ],
      { description: 'las copias fuera del servidor (backup.copyTo); null sin backup.copyTo' },
    ),
  }),
  alertas: Type.Object({
    webhook: Type.Boolean({ description: 'alerts.webhookUrl está configurada' }),
    min_disco_libre_mb: Type.Integer({ minimum: 0 }),
    activas: Type.Array(Type.String(), {
      description:
        'condiciones alertadas que aún no se resolvieron: disco_base_de_datos, disco_copias, copia_fallida, copia_externa_fallida, copia_externa_atrasada',
    }),
  }),
  errores_internos: Type.Object({
    ultimas_24_horas: Type.Integer({ minimum: 0 }),
    recientes: Type.Array(
      Type.Object({
        hora: LocalTime,
        tipo: Type.String(),
        mensaje: Type.String(),
        metodo: Type.Union([Type.String(), Type.Null()]),
        ruta: Type.Union([Type.String(), Type.Null()]),
        request_id: Type.Union([Type.String(), Type.Null()]),
      }),
      { maxItems: 20 },
    ),
  }),
})
export type ServiceStatus = Static<typeof ServiceStatus>
