import type { LocalDate } from '@js-joda/core'
import { insertAuditEntry } from '../audit/audit.store.ts'
import type { Config } from '../config/config.ts'
import type { ClientContract } from '../config/contract.ts'
import type { Database } from '../db/database.ts'
import { findPendingConflictId, insertConflict } from '../conflicts/conflicts.store.ts'
import {
  findInvoicesByNumbers,
  findNamedInvoices,
  insertInvoice,
  replaceInvoice,
  type ExistingInvoice,
} from '../invoices/invoices.store.ts'
import { insertManifest, type ExistingManifest } from '../manifests/manifests.store.ts'
import {
  findPossibleReissues,
  findReissueCandidates,
  NO_CANDIDATES,
  type PossibleReissue,
  type ReissueCandidates,
} from '../reissues/reissues.detection.ts'
import { insertReissue } from '../reissues/reissues.store.ts'
import { updateReturnsInvoiceDate } from '../returns/returns.store.ts'
import type { Advertencia, RejectedManifest, Resumen } from './intake.schemas.ts'
import { invoiceContentHash, type ReceivedInvoice } from '../invoices/received-invoice.ts'
import { compareWithStoredVersion, type Comparisons } from './intake.compare.ts'
import type { ChunkCache, OriginalPlace } from '../batches/body-chunks.ts'
import { numberOf, textOf } from '../invoices/invoice-fields.ts'

export interface ApplyOutcome {
  resumen: Resumen
  rejected: RejectedManifest[]
  advertencias: Advertencia[]
  /** Manifests with possible re-issues: how many, and whether the manifest was rejected for them. */
  reissues: Array<{ manifiesto: string; cantidad: number; rechazado: boolean }>
  /** All or nothing (v2): a manifest was rejected, so none of the batch was stored. */
  storedNothing: boolean
}

export interface ApplyContext {
  db: Database
  batchId: number
  batchUuid: string
  /** Stored instant of this processing. */
  at: string
  warehouses: ReadonlySet<string>
  autoUpdateFields: ReadonlySet<string>
  /** FechaFactura of each invoice as the date it means (step 4 read them, and refused unreadable ones). */
  dates: ReadonlyMap<ReceivedInvoice, LocalDate | null>
  /** Where the invoice's bytes are in the batch's body chunks (its original as stored). */
  originalPlace: (invoice: ReceivedInvoice) => OriginalPlace
  /** The comparisons with stored versions made ahead of step 8 (src/intake/intake.compare.ts). */
  comparisons: Comparisons
  /** The re-issue candidates found ahead of step 8 while still valid (nothing written since), or null: found here. */
  reissueCandidates: ReissueCandidates | null
  /** The last day for returns of a manifest created now (`YYYY-MM-DD`), or null: no window. */
  returnsDeadline: string | null
  reissue: Config['intake']['reissue']
  contract: ClientContract['intake']
}

/**
 * Step 8, run inside the batch's transaction: per manifest, the first failing rule rejects it
 * (unknown warehouse, closed, invoices under another manifest, in v2 invoices already in it, and
 * — with the reissue action `reject` — as many possible re-issues as the block threshold);
 * otherwise each invoice is inserted (flagged when it is a possible re-issue), left unchanged,
 * updated in place (every differing field auto-updatable) or held for review with a conflict
 * record. Every manifest is judged before anything is written (the rules read the database as it
 * was before the batch), so under an all-or-nothing contract one rejection stores nothing.
 * Existing rows and re-issue candidates are looked up with one set query each.
 */
export function applyBatch(
  context: ApplyContext,
  manifests: ReadonlyMap<string, readonly ReceivedInvoice[]>,
  existingManifests: ReadonlyMap<string, ExistingManifest>,
  received: number,
): ApplyOutcome {
  const { db } = context
  const existingInvoices = new Map<string, ExistingInvoice>()
  const nfacturas = [...manifests.values()].flatMap((invoices) => invoices.map((invoice) => invoice.nfactura))
  for (const row of findInvoicesByNumbers(db, nfacturas)) existingInvoices.set(row.nfactura, row)
  const isNew = (invoice: ReceivedInvoice) => !existingInvoices.has(invoice.nfactura)
  const { reissue } = context
  const candidates = !reissue.enabled
    ? NO_CANDIDATES
    : (context.reissueCandidates ??
      findReissueCandidates(
        db,
        [...manifests.values()]
          .flat()
          .filter(isNew)
          .map((invoice) => ({ fingerprint: invoice.fingerprint, date: context.dates.get(invoice)! })),
        reissue.windowDays,
      ))

  const verdicts = [...manifests].map(([numero, invoices]) => {
    const manifest = existingManifests.get(numero)
    let rejection = findRejection(context, numero, invoices, manifest, existingInvoices)
    const repeats = rejection
      ? []
      : findPossibleReissues(
          candidates,
          manifest?.id ?? null,
          invoices.filter(isNew),
          context.dates,
          reissue.windowDays,
        )
    if (repeats.length >= reissue.blockThreshold && reissue.action === 'reject')
      rejection = reissueRejection(db, numero, invoices, repeats)
    return { numero, invoices, manifest, rejection, repeats }
  })
  const storesNothing = context.contract.allOrNothing && verdicts.some((verdict) => verdict.rejection !== null)

  const resumen: Resumen = {
    recibidas: received,
    insertadas: 0,
    actualizadas: 0,
    sin_cambios: 0,
    pendientes_revision: 0,
    rechazadas: 0,
  }
  // The stored originals of a resent batch's invoices: each chunk decompressed once, whatever their order.
  const storedChunks: ChunkCache = new Map()
  const rejected: RejectedManifest[] = []
  const advertencias: Advertencia[] = []
  const reissues: ApplyOutcome['reissues'] = []

  for (const { numero, invoices, manifest, rejection, repeats } of verdicts) {
    if (rejection) {
      if (repeats.length > 0) reissues.push({ manifiesto: numero, cantidad: repeats.length, rechazado: true })
      rejected.push(rejection)
      resumen.rechazadas += invoices.length
      continue
    }
    if (storesNothing) continue
    if (repeats.length > 0) reissues.push({ manifiesto: numero, cantidad: repeats.length, rechazado: false })
    const manifestId = manifest?.id ?? insertManifest(db, numero, context.at, context.batchId, context.returnsDeadline)
    const repeated = new Map(repeats.map((repeat) => [repeat.invoice, repeat]))
    for (const invoice of invoices) {
      const existing = existingInvoices.get(invoice.nfactura)
      if (existing === undefined) {
        const invoiceId = insertInvoice(db, {
          nfactura: invoice.nfactura,
          manifestId,
          batchId: context.batchId,
          fecha: String(context.dates.get(invoice)),
          raw: invoice.raw,
          place: context.originalPlace(invoice),
          fingerprint: invoice.fingerprint,
          at: context.at,
        })
        const repeat = repeated.get(invoice)
        if (repeat)
          insertReissue(db, {
            invoiceId,
            originalInvoiceId: repeat.originalId,
            batchId: context.batchId,
            daysApart: repeat.daysApart,
            at: context.at,
          })
        resumen.insertadas += 1
      } else {
        resumen[compareWithStored(context, invoice, existing, numero, advertencias, storedChunks)] += 1
      }
    }
  }
  return { resumen, rejected, advertencias, reissues, storedNothing: storesNothing }
}

/** `intake.reissue.action` "reject": the manifest names each possible re-issue and what it repeats. */
function reissueRejection(
  db: Database,
  numero: string,
  invoices: readonly ReceivedInvoice[],
  repeats: readonly PossibleReissue[],
): RejectedManifest {
  const originals = findNamedInvoices(
    db,
    repeats.map((repeat) => repeat.originalId),
  )
  return {
    manifiesto: numero,
    total_facturas: invoices.length,
    motivo: 'FACTURAS_DUPLICADAS_EXACTAS',
    mensaje:
      `${repeats.length} factura(s) del manifiesto ${numero} son idénticas a facturas ya registradas en otro manifiesto (mismo cliente, ` +
      'mismos productos y cantidades, mismo total) con otro número: parecen re-emisiones, y el manifiesto no se insertó. No reenvíe esas ' +
      'facturas; las demás pueden enviarse en un manifiesto sin ellas.',
    facturas_duplicadas_exactas: repeats.map(({ invoice, originalId, daysApart }) => {
      const original = originals.get(originalId)!
      return {
        factura: invoice.nfactura,
        identica_a: original.nfactura,
        manifiesto_original: original.manifest_numero,
        fecha_original: original.fecha_factura,
        cliente: textOf(invoice.raw.Cliente as string | number),
        total: numberOf(invoice.raw.Total as string | number),
        dias_diferencia: daysApart,
      }
    }),
  }
}

function findRejection(
  context: ApplyContext,
  numero: string,
  invoices: readonly ReceivedInvoice[],
  manifest: ExistingManifest | undefined,
  existingInvoices: ReadonlyMap<string, ExistingInvoice>,
): RejectedManifest | null {
  const unknown = new Map<string, string[]>()
  for (const invoice of invoices) {
    if (context.warehouses.has(invoice.almacen)) continue
    unknown.set(invoice.almacen, [...(unknown.get(invoice.almacen) ?? []), invoice.nfactura])
  }
  if (unknown.size > 0) {
    return {
      manifiesto: numero,
      total_facturas: invoices.length,
      motivo: 'ALMACENES_DESCONOCIDOS',
      almacenes_desconocidos: [...unknown].map(([almacen, facturas]) => ({
        almacen,
        facturas,
        cantidad: facturas.length,
      })),
    }
  }
  if (manifest?.estado === 'closed') {
    return {
      manifiesto: numero,
      total_facturas: invoices.length,
      motivo: 'MANIFIESTO_CERRADO',
      mensaje: `El manifiesto ${numero} está cerrado y no acepta facturas. Si debe recibir más, pida al almacén que lo reabra.`,
    }
  }
  const elsewhere = invoices
    .map((invoice) => existingInvoices.get(invoice.nfactura))
    .filter((existing): existing is ExistingInvoice => existing !== undefined && existing.manifest_numero !== numero)
  if (elsewhere.length > 0) {
    return {
      manifiesto: numero,
      total_facturas: invoices.length,
      motivo: 'FACTURAS_DUPLICADAS_EN_OTRO_MANIFIESTO',
      mensaje: `${elsewhere.length} factura(s) del manifiesto ${numero} ya existen en otro manifiesto; una factura pertenece a un solo manifiesto. Quítelas o corrija su manifiesto y reenvíe.`,
      facturas_duplicadas: elsewhere.map((existing) => ({
        factura: existing.nfactura,
        manifiesto_existente: existing.manifest_numero,
      })),
    }
  }
  if (context.contract.existingInvoice === 'reject') {
    const stored = invoices.filter((invoice) => existingInvoices.has(invoice.nfactura))
    if (stored.length > 0) {
      return {
        manifiesto: numero,
        total_facturas: invoices.length,
        motivo: 'FACTURAS_YA_EXISTENTES',
        mensaje:
          `${stored.length} factura(s) del manifiesto ${numero} ya están registradas en él; no se actualizan ni se reemplazan. ` +
          'Reenvíe el manifiesto solo con las facturas nuevas.',
        facturas_existentes: stored.map((invoice) => ({ factura: invoice.nfactura })),
      }
    }
  }
  return null
}

/**
 * An invoice already stored under the same number in the same manifest: unchanged, updated in
 * place (every differing field auto-updatable), or held for review with a conflict record. The
 * comparison made ahead of step 8 is used while the stored version is still the one it was made
 * against (src/intake/intake.compare.ts).
 */
function compareWithStored(
  context: ApplyContext,
  invoice: ReceivedInvoice,
  existing: ExistingInvoice,
  numero: string,
  advertencias: Advertencia[],
  storedChunks: ChunkCache,
): 'sin_cambios' | 'actualizadas' | 'pendientes_revision' {
  const { db } = context
  const ahead = context.comparisons.get(existing.id)
  const verdict =
    ahead !== undefined && ahead.revision === existing.revision
      ? ahead.verdict
      : compareWithStoredVersion(db, invoice, existing.id, storedChunks)
  if (verdict.same) return 'sin_cambios'
  const { changed, existingOriginal, incomingOriginal } = verdict
  const write = writeOf(context, invoice, incomingOriginal)
  if (changed.every((field) => context.autoUpdateFields.has(field))) {
    replaceInvoice(db, existing.id, write)
    updateReturnsInvoiceDate(db, existing.id, write.fecha)
    insertAuditEntry(db, {
      at: context.at,
      actor: 'sistema',
      action: 'factura.actualizacion_automatica',
      subjectType: 'factura',
      subjectId: invoice.nfactura,
      before: existingOriginal,
      after: write.original,
      detail: { batch_uuid: context.batchUuid, campos_con_cambio: changed },
    })
    return 'actualizadas'
  }
  const incomingHash = invoiceContentHash(invoice.raw)
  if (findPendingConflictId(db, existing.id, incomingHash) === undefined) {
    insertConflict(db, {
      invoiceId: existing.id,
      batchId: context.batchId,
      changedFields: changed,
      existingOriginal,
      incomingOriginal: write.original,
      incomingHash,
      at: context.at,
    })
  }
  advertencias.push({
    factura: invoice.nfactura,
    manifiesto: numero,
    campos_con_cambio: changed,
    mensaje: `La factura ${invoice.nfactura} ya existe en el manifiesto ${numero} con datos distintos (${changed.join(', ')}). Se conservó la versión existente; la nueva quedó pendiente de revisión manual en el almacén.`,
  })
  return 'pendientes_revision'
}

/** A received version that replaces a stored one: its original is kept as text with it. */
function writeOf(context: ApplyContext, invoice: ReceivedInvoice, original: string) {
  return {
    fecha: String(context.dates.get(invoice)),
    raw: invoice.raw,
    original,
    fingerprint: invoice.fingerprint,
    at: context.at,
  }
}
