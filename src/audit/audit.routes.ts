import { LocalDate } from '@js-joda/core'
import Type from 'typebox'
import { formatLocalDateTime, startOfLocalDay, type Clock } from '../clock.ts'
import { all, type Database } from '../db/database.ts'
import { defineRoute, type Route } from '../http/route.ts'
import { OPERATOR_ERRORS } from '../http/schemas.ts'

const PAGE = 500
const LocalDateText = (description: string) => Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description })

const AuditQuery = Type.Object({
  desde: Type.Optional(LocalDateText('Desde (YYYY-MM-DD, incluida)')),
  hasta: Type.Optional(LocalDateText('Hasta (YYYY-MM-DD, incluida)')),
  tipo: Type.Optional(Type.String({ minLength: 1, description: 'factura, devolucion, concepto, manifiesto, conflicto…' })),
  sujeto: Type.Optional(Type.String({ minLength: 1, description: 'Número o id del sujeto (con tipo)' })),
  pagina: Type.Optional(Type.String({ pattern: '^[1-9][0-9]{0,8}$', description: `${PAGE} entradas por página` })),
})

const AuditEntry = Type.Object({
  id: Type.String(),
  en: Type.String(),
  quien: Type.String(),
  accion: Type.String(),
  tipo: Type.String(),
  sujeto: Type.String(),
  antes: Type.Unknown(),
  despues: Type.Unknown(),
  detalle: Type.Unknown(),
})

export function auditRoutes(deps: { db: Database; clock: Clock }): Route[] {
  const { db, clock } = deps
  return [
    defineRoute({
      method: 'GET',
      path: '/api/v1/operador/auditoria',
      access: 'operator',
      tag: 'operador: auditoría',
      summary: 'Quién cambió qué y cuándo',
      query: AuditQuery,
      responses: { 200: { description: `Entradas en orden, ${PAGE} por página`, schema: Type.Array(AuditEntry) }, ...OPERATOR_ERRORS },
      handle: ({ query }) => {
        let select = db.query.selectFrom('audit_log').selectAll()
        if (query.desde) select = select.where('at', '>=', startOfLocalDay(clock, query.desde))
        if (query.hasta) select = select.where('at', '<', startOfLocalDay(clock, LocalDate.parse(query.hasta).plusDays(1).toString()))
        if (query.tipo) select = select.where('subject_type', '=', query.tipo)
        if (query.sujeto) select = select.where('subject_id', '=', query.sujeto)
        const page = Number(query.pagina ?? '1')
        const rows = all(db, select.orderBy('id').limit(PAGE).offset((page - 1) * PAGE))
        const parse = (text: string | null) => (text === null ? null : (JSON.parse(text) as unknown))
        return {
          status: 200,
          body: rows.map((row) => ({
            id: String(row.id),
            en: formatLocalDateTime(clock, row.at),
            quien: row.actor,
            accion: row.action,
            tipo: row.subject_type,
            sujeto: row.subject_id,
            antes: parse(row.before),
            despues: parse(row.after),
            detalle: parse(row.detail),
          })),
        }
      },
    }),
  ]
}
