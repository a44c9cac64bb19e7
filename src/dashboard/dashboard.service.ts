import { ChronoUnit, LocalDate } from '@js-joda/core'
import { hasRight, scopeOf, type Actor } from '../access/actor.ts'
import { findBatchTotals, findTroubledBatches } from '../batches/batches.store.ts'
import { formatLocalDateTime, localDateOf, localDaysRange, today, type Clock } from '../core/clock.ts'
import { countPendingConflicts } from '../conflicts/conflicts.store.ts'
import type { Database } from '../db/database.ts'
import { countManifests, findManifestsDueOn, findOldestOpenManifest } from '../manifests/manifest-lists.store.ts'
import { countPendingReissues } from '../reissues/reissues.store.ts'
import { countPendingReturns, sumPendingReturns } from '../returns/returns.store.ts'
import { findScopedBatchDay } from '../batches/batches.store.ts'
import { microsToCentsAmount } from '../core/money.ts'
import { centsToAmount } from '../shared/quantities.ts'
import { deadlineDateTime } from '../returns/window.ts'
import type { DashboardView, PendingCounts } from './dashboard.schemas.ts'
import { getSettlementSummary } from '../settlement/settlement.service.ts'

export interface DashboardDeps {
  db: Database
  clock: Clock
}

/**
 * Today in Honduras for the actor's warehouses: today's batches (to those who may read batches),
 * pending conflicts (to those who decide them), pending returns and re-issues, open manifests and
 * the oldest, the returns windows that close today, and the money (issue 40: to deposit, ready to
 * close, deposited today, not settled by age). Every number is one indexed query.
 */
export function getDashboard(deps: DashboardDeps, actor: Actor): DashboardView {
  const { db, clock } = deps
  const scope = scopeOf(actor)
  const todayDate = today(clock)
  const oldest = findOldestOpenManifest(db, scope)
  const pending = sumPendingReturns(db, scope)
  const { from, to } = localDaysRange(clock, todayDate.toString(), todayDate.toString()) as { from: string; to: string }
  const received = findScopedBatchDay(db, from, to, scope)
  return {
    fecha: todayDate.toString(),
    lotes: hasRight(actor, 'leer_lotes')
      ? { ...todaysBatches(deps, todayDate), de_sus_almacenes: received.batches }
      : null,
    conflictos_pendientes: hasRight(actor, 'decidir_conflicto') ? countPendingConflicts(db, scope) : null,
    devoluciones_pendientes: pending.count,
    devoluciones_pendientes_importe: centsToAmount(pending.cents),
    recibido_hoy: { facturas: received.invoices, importe: microsToCentsAmount(received.micros) },
    reemisiones_pendientes: countPendingReissues(db, scope),
    manifiestos_abiertos: {
      cantidad: countManifests(db, scope, { estado: 'imported' }),
      mas_antiguo:
        oldest === undefined
          ? null
          : {
              numero: oldest.numero,
              fecha_ingreso: formatLocalDateTime(clock, oldest.created_at),
              dias: localDateOf(clock, oldest.created_at).until(todayDate, ChronoUnit.DAYS),
            },
    },
    plazos_que_vencen_hoy: findManifestsDueOn(db, scope, todayDate.toString()).map((row) => ({
      numero: row.numero,
      plazo_devoluciones: deadlineDateTime(LocalDate.parse(row.returns_deadline)),
      devoluciones_pendientes: row.pending_returns,
    })),
    liquidacion: getSettlementSummary(deps, actor),
  }
}

/**
 * What waits for the person, for the console's navigation (refreshed every minute): pending returns
 * to approve, and conflicts and possible re-issues to decide — each null when their role does not
 * decide them. Three counts on indexes.
 */
export function getPendingCounts(deps: DashboardDeps, actor: Actor): PendingCounts {
  const scope = scopeOf(actor)
  return {
    devoluciones: hasRight(actor, 'decidir_devolucion') ? countPendingReturns(deps.db, scope) : null,
    conflictos: hasRight(actor, 'decidir_conflicto')
      ? countPendingConflicts(deps.db, scope) + countPendingReissues(deps.db, scope)
      : null,
  }
}

function todaysBatches(
  deps: DashboardDeps,
  todayDate: LocalDate,
): Omit<NonNullable<DashboardView['lotes']>, 'de_sus_almacenes'> {
  const { from, to } = localDaysRange(deps.clock, todayDate.toString(), todayDate.toString()) as {
    from: string
    to: string
  }
  const { count, ...resumen } = findBatchTotals(deps.db, from, to)
  const troubled = findTroubledBatches(deps.db, from, to)
  return {
    cantidad: count,
    resumen,
    fallidos: troubled
      .filter((batch) => batch.estado === 'failed' && !isRefusedWhole(batch))
      .map((batch) => ({
        batch_uuid: batch.uuid,
        recibido_en: formatLocalDateTime(deps.clock, batch.received_at),
        fallo: batch.failure,
      })),
    con_rechazos: troubled
      .filter(
        (batch) =>
          isRefusedWhole(batch) ||
          (batch.estado === 'processed' && batch.http_status !== null && batch.http_status !== 200),
      )
      .map((batch) => ({
        batch_uuid: batch.uuid,
        recibido_en: formatLocalDateTime(deps.clock, batch.received_at),
        http_status: batch.http_status!,
      })),
  }
}

/** Contract v2 stores a batch refused whole as failed with its 422 answer: it was answered, not lost. */
function isRefusedWhole(batch: { estado: string; http_status: number | null }): boolean {
  return batch.estado === 'failed' && batch.http_status === 422
}
