import { readFileSync } from 'node:fs'

type Invoice = Record<string, unknown>

/** The example batch of shared/examples (copied into test/fixtures): every field the client sends. */
const EXAMPLE_BATCH = JSON.parse(
  readFileSync(new URL('../test/fixtures/batch-small.json', import.meta.url), 'utf8'),
) as Invoice[]

/**
 * A deterministic batch of realistic shape: every field of the example invoice (extra fields
 * included), ~8 lines per invoice, `perManifest` invoices per manifest, dated `fecha`.
 */
export function generateBatch(
  count: number,
  options: { fecha: string; perManifest?: number; prefix?: string; firstManifest?: number },
): Invoice[] {
  const template = EXAMPLE_BATCH[0]!
  const templateLines = template.LineasFactura as Array<Record<string, unknown>>
  const perManifest = options.perManifest ?? 100
  const prefix = options.prefix ?? 'G'
  const firstManifest = options.firstManifest ?? 700000
  const batch: Invoice[] = []
  for (let i = 0; i < count; i++) {
    const lineCount = 6 + (i % 5) // 6..10, ~8 on average
    const lines = []
    for (let n = 1; n <= lineCount; n++) {
      const base = templateLines[(n - 1) % templateLines.length]!
      lines.push({
        ...base,
        Id: 5_000_000 + i * 10 + n,
        InvoiceId: 900_000 + i,
        NumeroLinea: n,
        ProductoId: String(30_000_000 + ((i * 7 + n) % 5000)),
        Total: Math.round((100 + ((i + n) % 900) + n / 100) * 100) / 100,
      })
    }
    batch.push({
      ...template,
      Nfactura: `${prefix}-001-01-${String(i + 1).padStart(8, '0')}`,
      NumeroFacturaLX: String(10_000_000 + i),
      NumeroManifiesto: String(firstManifest + Math.floor(i / perManifest)),
      FechaFactura: `${options.fecha}T00:00:00.000Z`,
      Almacen: ['OAC', 'OAS', 'OAO'][i % 3],
      Clienteid: String(40_000_000 + (i % 3000)),
      Total: Math.round((1000 + (i % 5000) + 0.18) * 100) / 100,
      LineasFactura: lines,
    })
  }
  return batch
}
