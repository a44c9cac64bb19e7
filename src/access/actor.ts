import { DomainError } from '../core/errors.ts'
import type { Role } from '../db/tables.ts'

/**
 * Who is acting, as every operator service sees it: a person with an account (role, warehouses)
 * or an integration with the OperatorKey (acts as a supervisor of every warehouse, named by its
 * `Operador` header). The audit log records `nombre` and, for a person, `usuario`.
 */
export interface Actor {
  kind: 'persona' | 'integracion'
  nombre: string
  usuario: string | null
  rol: Role
  /** Warehouse codes the actor works in, or null for all of them. */
  almacenes: readonly string[] | null
}

/** What a role may do (issue 12). Fixed, not configurable. */
export type Right =
  | 'leer'
  | 'registrar_devolucion'
  | 'decidir_devolucion'
  | 'cerrar_manifiesto'
  | 'decidir_conflicto'
  | 'gestionar_conceptos'
  | 'leer_lotes'
  | 'leer_auditoria'
  | 'ver_estado'
  | 'gestionar_usuarios'
  /** A manifest's deposits, their receipts and its cent adjustments (every role sees the money summary with `leer`). */
  | 'ver_liquidacion'
  | 'registrar_deposito'
  | 'anular_deposito'
  | 'ajustar_liquidacion'

const OPERADOR: readonly Right[] = ['leer', 'registrar_devolucion']
const SUPERVISOR: readonly Right[] = [
  ...OPERADOR,
  'decidir_devolucion',
  'cerrar_manifiesto',
  'decidir_conflicto',
  'gestionar_conceptos',
  'leer_lotes',
  'leer_auditoria',
  'ver_estado',
  'ver_liquidacion',
  'registrar_deposito',
]
/** Finance (issue 40): sees what the warehouse sees and its money, settles it; never registers or decides returns. */
const FINANZAS: readonly Right[] = [
  'leer',
  'leer_auditoria',
  'ver_liquidacion',
  'registrar_deposito',
  'anular_deposito',
  'ajustar_liquidacion',
]
const RIGHTS: Record<Role, ReadonlySet<Right>> = {
  operador: new Set(OPERADOR),
  supervisor: new Set(SUPERVISOR),
  finanzas: new Set(FINANZAS),
  admin: new Set<Right>([...SUPERVISOR, 'gestionar_usuarios', 'anular_deposito', 'ajustar_liquidacion']),
}

/** What each right lets one do, for the 403 message that names what is missing. */
const DOING: Record<Right, string> = {
  leer: 'consultar manifiestos, facturas y devoluciones',
  registrar_devolucion: 'registrar devoluciones',
  decidir_devolucion: 'aprobar, rechazar o anular devoluciones',
  cerrar_manifiesto: 'cerrar o reabrir manifiestos ni cambiar su plazo de devoluciones',
  decidir_conflicto: 'revisar ni decidir conflictos de facturas, ni decidir posibles re-emisiones',
  gestionar_conceptos: 'crear ni cambiar conceptos de devolución',
  leer_lotes: 'consultar los lotes recibidos del proveedor',
  leer_auditoria: 'consultar la auditoría',
  ver_estado: 'consultar el estado del servicio',
  gestionar_usuarios: 'administrar usuarios',
  ver_liquidacion: 'consultar los depósitos, sus comprobantes ni los ajustes de centavos',
  registrar_deposito: 'registrar ni modificar depósitos',
  anular_deposito: 'anular depósitos',
  ajustar_liquidacion: 'ajustar centavos de la liquidación',
}

const WHO_CAN: Record<Right, string> = {
  leer: 'cualquier usuario',
  registrar_devolucion: 'cualquier usuario',
  decidir_devolucion: 'un supervisor',
  cerrar_manifiesto: 'un supervisor',
  decidir_conflicto: 'un supervisor',
  gestionar_conceptos: 'un supervisor',
  leer_lotes: 'un supervisor',
  leer_auditoria: 'un supervisor o a finanzas',
  ver_estado: 'un supervisor o el administrador',
  gestionar_usuarios: 'el administrador',
  ver_liquidacion: 'un supervisor o a finanzas',
  registrar_deposito: 'un supervisor o a finanzas',
  anular_deposito: 'finanzas o al administrador',
  ajustar_liquidacion: 'finanzas o al administrador',
}

export function hasRight(actor: Actor, right: Right): boolean {
  return RIGHTS[actor.rol].has(right) && (right !== 'gestionar_usuarios' || actor.kind === 'persona')
}

/** @throws DomainError FORBIDDEN (403) naming what the actor's role does not allow. */
export function requireRight(actor: Actor, right: Right): void {
  if (hasRight(actor, right)) return
  const who = actor.kind === 'integracion' ? 'La clave de integración (OperatorKey)' : `Su rol (${actor.rol})`
  throw new DomainError('FORBIDDEN', `${who} no permite ${DOING[right]}; pídaselo a ${WHO_CAN[right]}.`)
}

/** The warehouses an actor works in: a list of codes, or null for all. */
export type WarehouseScope = readonly string[] | null

export function scopeOf(actor: Actor): WarehouseScope {
  return actor.almacenes
}

/**
 * The actor's warehouses narrowed to one (a list's `almacen` filter): that one when the actor
 * works in it, none when not (the list is then empty: another warehouse stays invisible).
 */
export function narrowedScope(actor: Actor, almacen: string | undefined): WarehouseScope {
  const scope = scopeOf(actor)
  if (almacen === undefined) return scope
  return inScope(scope, almacen) ? [almacen] : []
}

/**
 * How a person is told of an invoice of a warehouse they do not have, when something they may see
 * names it (a re-issue's original): that it exists, nothing of it.
 */
export const OTHER_WAREHOUSE_INVOICE = 'otra factura de otro almacén'

/** How a message names an invoice other than the one asked about: `la factura A-1`, or `otra factura de otro almacén` outside `scope`. */
export function invoiceNamed(invoice: { nfactura: string; almacen: string }, scope: WarehouseScope): string {
  return inScope(scope, invoice.almacen) ? `la factura ${invoice.nfactura}` : OTHER_WAREHOUSE_INVOICE
}

/** Whether a warehouse is in scope. */
export function inScope(scope: WarehouseScope, almacen: string): boolean {
  return scope === null || scope.includes(almacen)
}

/** How the audit log names an actor. */
export function auditedBy(actor: Actor): { actor: string; actorUsuario: string | null } {
  return { actor: actor.nombre, actorUsuario: actor.usuario }
}
