import { useCallback, useEffect, useRef, useState } from 'preact/hooks'
import { useLocation, useSearch } from 'wouter-preact'
import { ApiError } from '../api/client.ts'

export interface Loaded<T> {
  data: T | undefined
  error: ApiError | null
  loading: boolean
  reload: () => void
}

/** Loads once per change of `deps`; an answer that arrives after a newer request is ignored. */
export function useLoad<T>(load: () => Promise<T>, deps: readonly unknown[]): Loaded<T> {
  const [state, setState] = useState<{ data: T | undefined; error: ApiError | null; loading: boolean }>({
    data: undefined,
    error: null,
    loading: true,
  })
  const [round, setRound] = useState(0)
  const latest = useRef(0)
  useEffect(() => {
    const mine = ++latest.current
    setState((previous) => ({ ...previous, loading: true, error: null }))
    load().then(
      (data) => mine === latest.current && setState({ data, error: null, loading: false }),
      (error: unknown) =>
        mine === latest.current && setState({ data: undefined, error: asApiError(error), loading: false }),
    )
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [...deps, round])
  const reload = useCallback(() => setRound((value) => value + 1), [])
  return { ...state, reload }
}

export function asApiError(error: unknown): ApiError {
  return error instanceof ApiError
    ? error
    : new ApiError(0, `Error inesperado en la consola: ${String(error)}. Recargue la página.`, null)
}

/**
 * A list's filters, kept in the address (`?estado=pending&q=912`): a link reproduces the view,
 * and the browser's back button undoes a filter. Empty values are left out.
 */
export function useFilters<K extends string>(
  defaults: Record<K, string>,
): [Record<K, string>, (changes: Partial<Record<K, string>>, options?: { replace?: boolean }) => void] {
  const search = useSearch()
  const [location, navigate] = useLocation()
  const params = new URLSearchParams(search)
  const values = {} as Record<K, string>
  for (const key of Object.keys(defaults) as K[]) values[key] = params.get(key) ?? defaults[key]
  // Typing in a search box replaces the address instead of adding a step per key.
  const change = (changes: Partial<Record<K, string>>, { replace = false } = {}) => {
    const next = new URLSearchParams(search)
    for (const [key, value] of Object.entries(changes) as Array<[K, string | undefined]>) {
      if (value === undefined || value === '' || value === defaults[key]) next.delete(key)
      else next.set(key, value)
    }
    // A new filter starts again at the first page.
    if (!('pagina' in changes)) next.delete('pagina')
    const text = next.toString()
    navigate(text === '' ? location : `${location}?${text}`, { replace })
  }
  return [values, change]
}

export const PAGE_SIZE = 50

/** One page of rows (1-based), and how many pages there are. */
export function pageOf<T>(
  rows: readonly T[],
  page: number,
  size = PAGE_SIZE,
): { rows: T[]; page: number; pages: number } {
  const pages = Math.max(1, Math.ceil(rows.length / size))
  const current = Math.min(Math.max(1, Number.isFinite(page) ? Math.floor(page) : 1), pages)
  return { rows: rows.slice((current - 1) * size, current * size), page: current, pages }
}
