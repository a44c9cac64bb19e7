import type { ComponentChildren } from 'preact'
import { useEffect, useState } from 'preact/hooks'
import { ApiError } from '../../api/client.ts'
import { currentUser } from '../../session.ts'
import { dateTime, hondurasDate, money } from '../../format.ts'
import { asApiError } from '../../ui/data.ts'

/**
 * A page made for printing (issue 42): Carta paper, black on white, no navigation. On screen a
 * bar above the sheet (hidden on paper) with "Imprimir" and "Volver"; the sheet itself is what the
 * printer gets. Page numbers ("Página 1 de 3") come from the print stylesheet's @page margin box.
 * `beforePrint` runs before the browser's print dialog (the invoices record that they are printed).
 */
export function PrintSheet({
  title,
  ready,
  error,
  beforePrint,
  children,
  wide,
}: {
  title: string
  ready: boolean
  error: ApiError | null
  beforePrint?: () => Promise<void>
  children: ComponentChildren
  wide?: boolean
}) {
  const [problem, setProblem] = useState<ApiError | null>(null)
  const [busy, setBusy] = useState(false)
  useEffect(() => {
    document.title = `${title} · Manifiesto`
    document.body.classList.add('imprimiendo')
    return () => document.body.classList.remove('imprimiendo')
  }, [title])
  const print = async () => {
    setProblem(null)
    setBusy(true)
    try {
      await beforePrint?.()
      // Let the sheet show what beforePrint changed (ORIGINAL or COPIA) before the dialog copies it.
      await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))
      window.print()
    } catch (failure) {
      setProblem(asApiError(failure))
    } finally {
      setBusy(false)
    }
  }
  return (
    <div class="impresion">
      <div class="barra-impresion no-imprimir" role="toolbar" aria-label="Impresión">
        <button type="button" class="enlace" onClick={() => history.back()}>
          ← Volver
        </button>
        <span class="titulo-impresion">{title}</span>
        <button type="button" class="principal" disabled={!ready || busy} onClick={() => void print()}>
          {busy ? 'Preparando…' : 'Imprimir'}
        </button>
      </div>
      {(error ?? problem) && (
        <p class="aviso error no-imprimir" role="alert">
          {(error ?? problem)!.message}
        </p>
      )}
      {!ready && !error && (
        <p class="cargando no-imprimir" role="status">
          Preparando la impresión…
        </p>
      )}
      {ready && <main class={wide ? 'hoja ancha' : 'hoja'}>{children}</main>}
    </div>
  )
}

/** The head of a report: its title, what it covers, who printed it and when. */
export function SheetHead({ title, children }: { title: string; children?: ComponentChildren }) {
  const now = new Date()
  return (
    <header class="cabecera-hoja">
      <div>
        <h1>{title}</h1>
        {children && <p>{children}</p>}
      </div>
      <p class="emitido">
        Impreso el{' '}
        {dateTime(
          `${hondurasDate(now)} ${now.toLocaleTimeString('en-GB', { timeZone: 'America/Tegucigalpa', hour12: false })}`,
        )}
        <br />
        por {currentUser.value?.nombre ?? '—'}
      </p>
    </header>
  )
}

/** Signature lines: one per role ("Entrega", "Recibe"), with room for the name. */
export function Signatures({ who }: { who: readonly string[] }) {
  return (
    <div class="firmas">
      {who.map((role) => (
        <div key={role} class="firma">
          <span class="linea-firma" />
          {role}: nombre y firma
        </div>
      ))}
    </div>
  )
}

/** An amount as the paper prints it, right-aligned: `L 1,234.56`. */
export function Amount({ value }: { value: number | null }) {
  return <td class="num">{value === null ? '' : money(value)}</td>
}

/** Integer cents of an amount (sums are taken in cents, so totals are exact). */
export function cents(amount: number): number {
  return Math.round(amount * 100)
}

/** Loads every page of a paged list (the print views print all of it), up to `limit` pages. */
export async function allPages<T>(
  load: (page: number) => Promise<{ items: T[]; more: boolean }>,
  limit = 100,
): Promise<T[]> {
  const items: T[] = []
  for (let page = 1; page <= limit; page++) {
    const answer = await load(page)
    items.push(...answer.items)
    if (!answer.more) return items
  }
  throw new ApiError(0, `La lista tiene más de ${limit} páginas: acote las fechas para imprimirla.`, null)
}
