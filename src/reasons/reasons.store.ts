import { all, first, run, type Database } from '../db/database.ts'
import type { ReturnReasonTable } from '../db/tables.ts'

export type ReasonRow = ReturnReasonTable

export function findReasons(db: Database): ReasonRow[] {
  return all(db, db.query.selectFrom('return_reasons').selectAll().orderBy('codigo'))
}

export function findReason(db: Database, codigo: string): ReasonRow | undefined {
  return first(db, db.query.selectFrom('return_reasons').selectAll().where('codigo', '=', codigo))
}

export function insertReason(db: Database, row: ReasonRow): void {
  run(db, db.query.insertInto('return_reasons').values(row))
}

export function updateReason(
  db: Database,
  codigo: string,
  changes: Partial<Pick<ReasonRow, 'id_proveedor' | 'descripcion' | 'activo' | 'updated_at'>>,
): void {
  run(db, db.query.updateTable('return_reasons').set(changes).where('codigo', '=', codigo))
}
