import type { Actor } from '../../src/access/actor.ts'
import { exampleBatch, postBatch, type Answer } from './batches.ts'
import { OPERATOR_KEY, type TestService } from './service.ts'

export const OPERATOR = 'Ana Lucía Fiallos'

/** An integration acting with the OperatorKey, for calling services directly. */
export const INTEGRATION: Actor = {
  kind: 'integracion',
  nombre: OPERATOR,
  usuario: null,
  rol: 'supervisor',
  almacenes: null,
}
export const FACTURA = '001-001-01-00912001'

/** An operator request: OperatorKey and the (percent-encoded) Operador header, JSON body. */
export async function operator(
  service: TestService,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: Answer }> {
  const response = await service.fetch(`/api/v1/operador/${path}`, {
    method,
    headers: {
      OperatorKey: OPERATOR_KEY,
      Operador: encodeURIComponent(OPERATOR),
      'Content-Type': 'application/json',
      ...headers,
    },
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  })
  return { status: response.status, body: (await response.json()) as Answer }
}

/**
 * The example batch (dated `fecha`, by default 2026-11-22, the default clock's today) and two reasons: DANADO (supplier id 7) and VENCIDO (no supplier id).
 * Invoice 001-001-01-00912001: line 1 UN 12 units (430.56), line 2 CJ 2×96 (1476.77), line 3
 * mixed 1×72 + 10 (392.85).
 */
export async function seedReturns(service: TestService, fecha?: string): Promise<void> {
  const intake = await postBatch(service, exampleBatch(fecha))
  if (intake.status !== 200) throw new Error(`seed batch: ${JSON.stringify(intake.body)}`)
  for (const reason of [
    { codigo: 'DANADO', idProveedor: '7', descripcion: 'Producto dañado' },
    { codigo: 'VENCIDO', descripcion: 'Producto vencido' },
  ]) {
    const created = await operator(service, 'POST', 'conceptos', reason)
    if (created.status !== 201) throw new Error(`seed reason: ${JSON.stringify(created.body)}`)
  }
}

export function registerReturn(service: TestService, lineas: unknown[], extra: Record<string, unknown> = {}) {
  return operator(service, 'POST', 'devoluciones', {
    factura: FACTURA,
    concepto: 'DANADO',
    fecha: '2026-11-22T09:30:00',
    lineas,
    ...extra,
  })
}
