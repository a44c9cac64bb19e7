import type { ComponentChildren } from 'preact'
import { useEffect, useState } from 'preact/hooks'
import { Link, useLocation, useSearch } from 'wouter-preact'
import type { ApiError } from '../api/client.ts'
import { money } from '../format.ts'

/** A screen: its title (also the window's), actions beside it, its content. */
export function Page({
  title,
  subtitle,
  actions,
  children,
}: {
  title: string
  subtitle?: ComponentChildren
  actions?: ComponentChildren
  children: ComponentChildren
}) {
  useEffect(() => {
    document.title = `${title} · Manifiesto`
  }, [title])
  return (
    <section class="pantalla" aria-labelledby="titulo-pantalla">
      <header class="encabezado-pantalla">
        <div>
          <h1 id="titulo-pantalla">{title}</h1>
          {subtitle && <p class="subtitulo">{subtitle}</p>}
        </div>
        {actions && <div class="acciones">{actions}</div>}
      </header>
      {children}
    </section>
  )
}

export function ErrorNote({ error, children }: { error: ApiError | null; children?: ComponentChildren }) {
  if (error === null) return null
  return (
    <p class="aviso error" role="alert">
      {error.message}
      {children}
    </p>
  )
}

export function Loading({ what = 'datos' }: { what?: string }) {
  return (
    <p class="cargando" role="status">
      Cargando {what}…
    </p>
  )
}

/** What an empty list says: why it is empty and what to do. */
export function Empty({ children }: { children: ComponentChildren }) {
  return <p class="vacio">{children}</p>
}

export function Money({ amount }: { amount: number }) {
  return <span class="num">{money(amount)}</span>
}

export interface TabItem {
  label: string
  href: string
  current: boolean
}

/** Tabs that are links: each tab is a view with its own address. */
export function Tabs({ items, label }: { items: TabItem[]; label: string }) {
  return (
    <nav class="pestanas" aria-label={label}>
      {items.map((item) => (
        <Link key={item.href} href={item.href} aria-current={item.current ? 'page' : undefined}>
          {item.label}
        </Link>
      ))}
    </nav>
  )
}

export function StateTag({ state, label }: { state: string; label: string }) {
  return <span class={`estado estado-${state}`}>{label}</span>
}

/**
 * A short-lived message after an action ("Devolución 12 aprobada."), read aloud by screen readers.
 * It belongs to where the action was done: once the person moves on (another screen, filter or
 * page: the address changes), it is gone.
 */
export function Notice({ text }: { text: string | null }) {
  const [location] = useLocation()
  const search = useSearch()
  const here = `${location}?${search}`
  const [shownAt, setShownAt] = useState<{ text: string; at: string } | null>(null)
  useEffect(() => {
    setShownAt(text === null ? null : { text, at: here })
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [text])
  const visible = text !== null && (shownAt === null || shownAt.text !== text || shownAt.at === here)
  return (
    <p class={visible ? 'aviso exito' : 'oculto'} role="status">
      {visible ? text : ''}
    </p>
  )
}

export function BackLink({ href, children }: { href: string; children: ComponentChildren }) {
  return (
    <p class="volver">
      <Link href={href}>← {children}</Link>
    </p>
  )
}
