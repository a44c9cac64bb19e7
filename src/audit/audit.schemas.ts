import Type, { type Static } from 'typebox'
import { LocalDate, Page } from '../schemas/vocabulary.ts'

export const AUDIT_PAGE_SIZE = 500

export const AuditQuery = Type.Object({
  desde: Type.Optional(LocalDate('Desde (YYYY-MM-DD, incluida)')),
  hasta: Type.Optional(LocalDate('Hasta (YYYY-MM-DD, incluida)')),
  tipo: Type.Optional(
    Type.String({ minLength: 1, maxLength: 40, description: 'factura, devolucion, concepto, manifiesto, conflicto…' }),
  ),
  sujeto: Type.Optional(
    Type.String({ minLength: 1, maxLength: 200, description: 'Número o id del sujeto (con tipo)' }),
  ),
  usuario: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 100,
      description:
        'Quien hizo el cambio: palabras de su usuario o de su nombre, sin distinguir mayúsculas ni acentos, en cualquier orden, cada una incompleta si se quiere',
    }),
  ),
  accion: Type.Optional(
    Type.String({
      pattern: '^[a-z_]{1,40}$',
      description: 'La clase de acción: conflicto (aceptado o descartado), reemision, devolucion…',
      errorMessage: 'una palabra en minúsculas (conflicto, reemision, devolucion…)',
    }),
  ),
  pagina: Type.Optional(Page(`${AUDIT_PAGE_SIZE} entradas por página`)),
})

export const AuditEntryView = Type.Object({
  id: Type.String(),
  en: Type.String(),
  quien: Type.String({
    description: 'Nombre de quien actuó: una persona, una integración (encabezado Operador) o sistema',
  }),
  usuario: Type.Optional(
    Type.String({ description: 'Usuario de la persona que actuó (ausente para integraciones y el sistema)' }),
  ),
  accion: Type.String(),
  tipo: Type.String(),
  sujeto: Type.String(),
  antes: Type.Unknown(),
  despues: Type.Unknown(),
  detalle: Type.Unknown(),
})
export type AuditEntryView = Static<typeof AuditEntryView>
