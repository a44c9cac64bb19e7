import assert from 'node:assert/strict'
import { asPerson, createAccount, sessionOf } from './accounts.ts'
import type { Answer } from './batches.ts'
import { operator, seedReturns } from './operator.ts'
import type { TestService } from './service.ts'

export const F1 = '001-001-01-00912001'
export const F2 = '001-001-01-00912002'

/**
 * Returns as the console's tests use them, on the example batch (manifest 905112): 1 on F1 (OAC,
 * "PULPERIA LA ESPERANZA"; line 1: 1 unit, line 2: 1 box) registered the 22nd and approved; 2 on
 * F2 (OAS, "SUPER EL AHORRO"; line 1: 1 unit) the 22nd, pending; 3 on F1 (VENCIDO; line 3: 2
 * units) the 23rd, pending — the clock is left at 2026-11-23 09:00 in Honduras. Accounts: op-oac
 * (operador) and sup-oac (supervisor), both of OAC.
 */
export async function seedConsoleReturns(service: TestService): Promise<void> {
  await seedReturns(service)
  const register = (factura: string, concepto: string, lineas: unknown[]) =>
    operator(service, 'POST', 'devoluciones', { factura, concepto, fecha: '2026-11-22T09:30:00', lineas })
  assert.equal(
    (
      await register(F1, 'DANADO', [
        { numeroLinea: 1, unidades: 1 },
        { numeroLinea: 2, cajas: 1 },
      ])
    ).status,
    201,
  )
  assert.equal((await register(F2, 'DANADO', [{ numeroLinea: 1, unidades: 1 }])).status, 201)
  assert.equal((await operator(service, 'POST', 'devoluciones/1/aprobar')).status, 200)
  service.clock.set('2026-11-23T15:00:00Z')
  assert.equal((await register(F1, 'VENCIDO', [{ numeroLinea: 3, unidades: 2 }])).status, 201)
  await createAccount(service, 'op-oac', 'operador', ['OAC'])
  await createAccount(service, 'sup-oac', 'supervisor', ['OAC'])
}

export type ConsoleWho = 'clave' | 'op-oac' | 'sup-oac'

/** An operator request as the integration key or as one of the seeded people. */
export async function requestAs(
  service: TestService,
  who: ConsoleWho,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: Answer }> {
  if (who === 'clave') return operator(service, method, path, body)
  return asPerson(service, await sessionOf(service, who), method, path, body)
}
