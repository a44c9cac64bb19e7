import { useEffect, useRef, useState } from 'preact/hooks'
import { Link, useLocation } from 'wouter-preact'
import { api } from '../../api/client.ts'
import type { SearchAnswer } from '../../api/types.ts'
import { date, dateTime, MANIFEST_STATES, money, quantity, RETURN_STATES } from '../../format.ts'
import { asApiError } from '../../ui/data.ts'

/** Typing waits this long for the next key before asking the service. */
const TYPING_PAUSE_MS = 180

/**
 * The header search (issue 41): from any screen, `/` or Ctrl+K puts the cursor here; as the person
 * types, the invoices, manifests and returns of their warehouses that match appear grouped under
 * the box (the service matches without case or accents, in any word order, words in part); Enter
 * opens the first result, Escape closes the list.
 */
export function HeaderSearch() {
  const [, navigate] = useLocation()
  const [text, setText] = useState('')
  const [open, setOpen] = useState(false)
  const [answer, setAnswer] = useState<{ for: string; results: SearchAnswer } | null>(null)
  const [problem, setProblem] = useState<string | null>(null)
  const input = useRef<HTMLInputElement>(null)
  const box = useRef<HTMLDivElement>(null)
  const latest = useRef(0)

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement | null
      const typing =
        target !== null &&
        (target.tagName === 'INPUT' ||
          target.tagName === 'TEXTAREA' ||
          target.tagName === 'SELECT' ||
          target.isContentEditable)
      if ((event.key === 'k' && (event.ctrlKey || event.metaKey)) || (event.key === '/' && !typing)) {
        event.preventDefault()
        input.current?.focus()
        input.current?.select()
      }
    }
    const onClick = (event: MouseEvent) => {
      if (box.current && !box.current.contains(event.target as Node)) setOpen(false)
    }
    document.addEventListener('keydown', onKey)
    document.addEventListener('mousedown', onClick)
    return () => {
      document.removeEventListener('keydown', onKey)
      document.removeEventListener('mousedown', onClick)
    }
  }, [])

  useEffect(() => {
    const wanted = text.trim()
    const mine = ++latest.current
    if (wanted === '') {
      setAnswer(null)
      setProblem(null)
      return
    }
    const timer = setTimeout(() => {
      api.search(wanted).then(
        (results) => {
          if (mine !== latest.current) return
          setAnswer({ for: wanted, results })
          setProblem(null)
        },
        (failure: unknown) => mine === latest.current && setProblem(asApiError(failure).message),
      )
    }, TYPING_PAUSE_MS)
    return () => clearTimeout(timer)
  }, [text])

  const results = answer?.results
  const firstHref = results ? firstResult(results) : null
  const close = () => {
    setOpen(false)
    setText('')
  }
  const go = (href: string) => {
    close()
    navigate(href)
  }
  const empty =
    results !== undefined &&
    results.facturas.resultados.length +
      results.manifiestos.resultados.length +
      results.devoluciones.resultados.length ===
      0
  return (
    <div class="buscador" ref={box}>
      <form
        role="search"
        aria-label="Buscar en todo"
        noValidate
        onSubmit={(event) => {
          event.preventDefault()
          if (firstHref !== null && answer?.for === text.trim()) go(firstHref)
        }}
      >
        <label for="busqueda-general" class="oculto">
          Buscar en todo
        </label>
        <input
          id="busqueda-general"
          ref={input}
          type="search"
          autoComplete="off"
          maxLength={100}
          placeholder="Buscar factura, cliente, RTN, ruta…  ( / )"
          aria-describedby="busqueda-ayuda"
          aria-controls="busqueda-resultados"
          aria-expanded={open && text.trim() !== ''}
          value={text}
          onInput={(event) => {
            setText(event.currentTarget.value)
            setOpen(true)
          }}
          onFocus={() => setOpen(true)}
          onKeyDown={(event) => {
            if (event.key === 'Escape') {
              setOpen(false)
              input.current?.blur()
            }
          }}
        />
        <span id="busqueda-ayuda" class="oculto">
          Escriba parte del número de factura, del nombre o código del cliente, del RTN, de la ruta o el número de
          manifiesto, sin importar tildes ni el orden de las palabras. Enter abre el primer resultado.
        </span>
      </form>
      {open && text.trim() !== '' && (
        <section
          id="busqueda-resultados"
          class="resultados-busqueda"
          aria-label="Resultados de la búsqueda"
          aria-busy={answer?.for !== text.trim()}
        >
          {firstHref !== null && <p class="primero">Enter abre el primer resultado · Esc cierra</p>}
          {problem && <p class="aviso error">{problem}</p>}
          {!problem && results === undefined && <p class="tenue">Buscando…</p>}
          {!problem && empty && (
            <p class="tenue">
              Nada coincide con «{text.trim()}» en sus almacenes. Pruebe con otra parte del nombre o del número.
            </p>
          )}
          {results && results.facturas.resultados.length > 0 && (
            <Group title="Facturas" more={results.facturas.hay_mas}>
              {results.facturas.resultados.map((hit) => (
                <li key={hit.factura}>
                  <Link href={`/facturas/${encodeURIComponent(hit.factura)}`} onClick={close}>
                    <strong>{hit.factura}</strong> <span>{hit.cliente}</span>
                    <span class="detalle">
                      Manifiesto {hit.manifiesto} ({MANIFEST_STATES[hit.manifiesto_estado]}) · {date(hit.fecha_factura)}{' '}
                      · {hit.almacen} · <span class="num">{money(hit.total)}</span>
                      {hit.anulada ? ' · anulada' : ''}
                    </span>
                  </Link>
                </li>
              ))}
            </Group>
          )}
          {results && results.manifiestos.resultados.length > 0 && (
            <Group title="Manifiestos" more={results.manifiestos.hay_mas}>
              {results.manifiestos.resultados.map((hit) => (
                <li key={hit.numero}>
                  <Link href={`/manifiestos/${hit.numero}`} onClick={close}>
                    <strong>Manifiesto {hit.numero}</strong> <span>{MANIFEST_STATES[hit.estado]}</span>
                    <span class="detalle">
                      Ingresó {dateTime(hit.fecha_ingreso)} · {quantity(hit.total_facturas)} facturas ·{' '}
                      <span class="num">{money(hit.total_importe)}</span>
                    </span>
                  </Link>
                </li>
              ))}
            </Group>
          )}
          {results && results.devoluciones.resultados.length > 0 && (
            <Group title="Devoluciones" more={results.devoluciones.hay_mas}>
              {results.devoluciones.resultados.map((hit) => (
                <li key={hit.id}>
                  <Link href={`/devoluciones/${hit.id}`} onClick={close}>
                    <strong>Devolución {hit.id}</strong> <span>{hit.cliente}</span>
                    <span class="detalle">
                      Factura {hit.factura} · Manifiesto {hit.manifiesto} · {RETURN_STATES[hit.estado]} ·{' '}
                      {date(hit.fecha)} · <span class="num">{money(hit.total)}</span>
                    </span>
                  </Link>
                </li>
              ))}
            </Group>
          )}
        </section>
      )}
    </div>
  )
}

function Group({ title, more, children }: { title: string; more: boolean; children: preact.ComponentChildren }) {
  const id = `resultados-${title.toLowerCase()}`
  return (
    <section aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      <ul>{children}</ul>
      {more && <p class="tenue mas">Hay más: escriba más palabras para acotar.</p>}
    </section>
  )
}

/** Where Enter goes: the first invoice, else the first manifest, else the first return. */
function firstResult(results: SearchAnswer): string | null {
  const invoice = results.facturas.resultados[0]
  if (invoice) return `/facturas/${encodeURIComponent(invoice.factura)}`
  const manifest = results.manifiestos.resultados[0]
  if (manifest) return `/manifiestos/${manifest.numero}`
  const found = results.devoluciones.resultados[0]
  return found ? `/devoluciones/${found.id}` : null
}
