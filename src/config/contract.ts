import type { Config } from './config.ts'

/**
 * What the supplier's client system expects, decided in one place (`clientContract`, issue 19).
 * "v1" is interface-v1 exactly; "v2" is the contract the replaced system answers since August
 * 2026. Intake, listing, returns and manifests read these rules instead of asking which version
 * is active; every rule not named here is the same in both.
 */
export interface ClientContract {
  name: Config['clientContract']
  intake: {
    /** v2: any manifest rejected in step 8 leaves the whole batch unstored (one transaction). */
    allOrNothing: boolean
    /**
     * An invoice already stored in the same manifest: v1 compares it (sin_cambios, update or
     * conflict held for review); v2 rejects its manifest with FACTURAS_YA_EXISTENTES.
     */
    existingInvoice: 'compare' | 'reject'
    /**
     * The valid manifests of a FECHAS_INVALIDAS / MANIFIESTOS_FECHA_INVALIDA answer: v1 details
     * them (`manifiestos_validos`, `manifiestos_no_afectados`); v2 lists their numbers in `manifiestos`.
     */
    validManifests: 'detailed' | 'numbers'
  }
  listing: {
    /** The day `Fecha`/`FechaHasta` select: the return's processing day (v1) or its invoice's issue day (v2). */
    filterBy: 'processed' | 'issued'
    /**
     * v2: a manifest's approved returns are published all at once when its returns window
     * closes (never a partial package), and from then on they are frozen.
     */
    completePackages: boolean
    /** A line's `cantidad`: boxes for CJ lines and units for the rest (v1), or always units (v2). */
    quantity: 'sales-unit' | 'units'
  }
}

const V1: ClientContract = {
  name: 'v1',
  intake: { allOrNothing: false, existingInvoice: 'compare', validManifests: 'detailed' },
  listing: { filterBy: 'processed', completePackages: false, quantity: 'sales-unit' },
}

const V2: ClientContract = {
  name: 'v2',
  intake: { allOrNothing: true, existingInvoice: 'reject', validManifests: 'numbers' },
  listing: { filterBy: 'issued', completePackages: true, quantity: 'units' },
}

/** The rules of the configured contract. */
export function clientContractOf(name: Config['clientContract']): ClientContract {
  return name === 'v2' ? V2 : V1
}
