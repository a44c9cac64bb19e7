import { useEffect } from 'preact/hooks'
import { Link, Redirect, Route, Router, Switch, useLocation, useSearch } from 'wouter-preact'
import { api } from './api/client.ts'
import { ROLES } from './format.ts'
import { canReadAudit, canSeeDeposits, currentUser, isAdmin, isSupervisor, loadSession } from './session.ts'
import { addressSegmentAfter } from './ui/address.ts'
import { AuditScreen } from './screens/auditoria/auditoria.tsx'
import { ConceptsScreen } from './screens/conceptos/conceptos.tsx'
import { ConflictsScreen } from './screens/conflictos/conflictos.tsx'
import { AccountScreen } from './screens/cuenta/cuenta.tsx'
import { ReturnsScreen } from './screens/devoluciones/devoluciones.tsx'
import { ReturnScreen } from './screens/devoluciones/detalle.tsx'
import { HeaderSearch } from './screens/buscar/buscador.tsx'
import { PENDING_EVERY_MS, pendingCounts, refreshPending } from './ui/pending.ts'
import { LoginScreen } from './screens/entrar/entrar.tsx'
import { InvoiceScreen } from './screens/factura/factura.tsx'
import { RegisterReturnScreen } from './screens/factura/registrar.tsx'
import { HomeScreen } from './screens/inicio/inicio.tsx'
import { DepositsScreen } from './screens/liquidacion/depositos.tsx'
import { BatchScreen, BatchesScreen } from './screens/lotes/lotes.tsx'
import { ManifestScreen } from './screens/manifiestos/manifiesto.tsx'
import { ManifestsScreen } from './screens/manifiestos/manifiestos.tsx'
import { StatusScreen } from './screens/estado/estado.tsx'
import { UsersScreen } from './screens/usuarios/usuarios.tsx'
import { PrintRoutes } from './screens/imprimir/imprimir.tsx'

/** The console lives under /consola/; every screen has its own address (deep links load the app). */
export function App() {
  useEffect(() => {
    void loadSession()
  }, [])
  return (
    <Router base="/consola">
      <Shell />
    </Router>
  )
}

function Shell() {
  const user = currentUser.value
  const [location] = useLocation()
  const search = useSearch()
  if (user === undefined)
    return (
      <p class="cargando-inicial" role="status">
        Cargando la consola…
      </p>
    )
  if (user === null) {
    if (location === '/entrar') return <LoginScreen />
    // Back here after logging in: the screen the person asked for.
    const back = location + (search ? `?${search}` : '')
    return <Redirect to={`/entrar?volver=${encodeURIComponent(back)}`} replace />
  }
  // A print view is the paper alone: no bar, no navigation (issue 42).
  if (location.startsWith('/imprimir/')) return <PrintRoutes />
  return (
    <div class="marco">
      <a class="saltar" href="#contenido">
        Saltar al contenido
      </a>
      <header class="barra">
        <Link href="/" class="marca">
          Manifiesto
        </Link>
        <Navigation />
        <HeaderSearch />
        <div class="quien">
          <Link href="/cuenta" aria-label={`Mi cuenta: ${user.nombre}, ${ROLES[user.rol]}`}>
            {user.nombre}
            <span class="rol"> · {ROLES[user.rol]}</span>
          </Link>
          <button type="button" class="enlace" onClick={() => void logOut()}>
            Salir
          </button>
        </div>
      </header>
      <main id="contenido" tabIndex={-1}>
        <Switch>
          <Route path="/entrar">
            <AfterLogin />
          </Route>
          <Route path="/" component={HomeScreen} />
          <Route path="/manifiestos" component={ManifestsScreen} />
          <Route path="/manifiestos/:numero">{(params) => <ManifestScreen numero={params.numero} />}</Route>
          <Route path="/facturas/:nfactura">{() => <InvoiceScreen nfactura={addressSegmentAfter('facturas')} />}</Route>
          <Route path="/facturas/:nfactura/devolver">
            {() => <RegisterReturnScreen nfactura={addressSegmentAfter('facturas')} />}
          </Route>
          <Route path="/devoluciones" component={ReturnsScreen} />
          <Route path="/devoluciones/:id">{(params) => <ReturnScreen id={params.id} />}</Route>
          <Route path="/conflictos">{isSupervisor.value ? <ConflictsScreen /> : <NotAllowed />}</Route>
          <Route path="/lotes">{isSupervisor.value ? <BatchesScreen /> : <NotAllowed />}</Route>
          <Route path="/lotes/:uuid">
            {(params) => (isSupervisor.value ? <BatchScreen uuid={params.uuid} /> : <NotAllowed />)}
          </Route>
          <Route path="/depositos">{canSeeDeposits.value ? <DepositsScreen /> : <NotAllowed />}</Route>
          <Route path="/conceptos" component={ConceptsScreen} />
          <Route path="/auditoria">{canReadAudit.value ? <AuditScreen /> : <NotAllowed />}</Route>
          <Route path="/usuarios">{isAdmin.value ? <UsersScreen /> : <NotAllowed />}</Route>
          <Route path="/estado">{isSupervisor.value ? <StatusScreen /> : <NotAllowed />}</Route>
          <Route path="/cuenta" component={AccountScreen} />
          <Route>
            <section class="pantalla">
              <h1>Esta pantalla no existe</h1>
              <p>
                Revise la dirección o vuelva a <Link href="/">Inicio</Link>.
              </p>
            </section>
          </Route>
        </Switch>
      </main>
    </div>
  )
}

/** Logged in already (or just now): on to where the person was going. */
function AfterLogin() {
  const back = new URLSearchParams(useSearch()).get('volver')
  return <Redirect to={back !== null && back.startsWith('/') && !back.startsWith('//') ? back : '/'} replace />
}

function NotAllowed() {
  return (
    <section class="pantalla">
      <h1>Esta pantalla no es para su rol</h1>
      <p>
        Su rol ({ROLES[currentUser.value?.rol ?? 'operador']}) no permite verla. Si la necesita, pídaselo a un
        supervisor o al administrador. Vuelva a <Link href="/">Inicio</Link>.
      </p>
    </section>
  )
}

const LINKS: Array<{ href: string; label: string; who: 'todos' | 'supervisor' | 'dinero' | 'admin' }> = [
  { href: '/', label: 'Inicio', who: 'todos' },
  { href: '/manifiestos', label: 'Manifiestos', who: 'todos' },
  { href: '/devoluciones', label: 'Devoluciones', who: 'todos' },
  { href: '/depositos', label: 'Depósitos', who: 'dinero' },
  { href: '/conflictos', label: 'Conflictos', who: 'supervisor' },
  { href: '/lotes', label: 'Lotes', who: 'supervisor' },
  { href: '/conceptos', label: 'Conceptos', who: 'todos' },
  { href: '/auditoria', label: 'Auditoría', who: 'dinero' },
  { href: '/usuarios', label: 'Usuarios', who: 'admin' },
  { href: '/estado', label: 'Estado', who: 'supervisor' },
]

/** Who sees a link: everyone, supervisors (and the admin), those of the money (supervisors, finance, the admin), the admin. */
function shown(who: (typeof LINKS)[number]['who']): boolean {
  if (who === 'todos') return true
  if (who === 'supervisor') return isSupervisor.value
  if (who === 'dinero') return canSeeDeposits.value
  return isAdmin.value
}

/** What waits beside a section's name: `Devoluciones (3)`, its accessible name saying what the number is. */
function waiting(href: string): { count: number; what: string } | null {
  const counts = pendingCounts.value
  if (counts === null) return null
  if (href === '/devoluciones' && counts.devoluciones !== null)
    return { count: counts.devoluciones, what: 'por aprobar' }
  if (href === '/conflictos' && counts.conflictos !== null) return { count: counts.conflictos, what: 'por decidir' }
  return null
}

function Navigation() {
  const [location] = useLocation()
  const visible = LINKS.filter((link) => shown(link.who))
  // The counts are read now, every minute, and on every change of screen (after an action elsewhere).
  useEffect(() => {
    void refreshPending()
    const timer = setInterval(() => void refreshPending(), PENDING_EVERY_MS)
    return () => clearInterval(timer)
  }, [])
  useEffect(() => {
    void refreshPending()
  }, [location])
  return (
    <nav aria-label="Secciones">
      <ul>
        {visible.map((link) => {
          const current =
            link.href === '/' ? location === '/' : location === link.href || location.startsWith(`${link.href}/`)
          return (
            <li key={link.href}>
              <Link href={link.href} aria-current={current ? 'page' : undefined}>
                {link.label}
                <Waiting href={link.href} />
              </Link>
            </li>
          )
        })}
      </ul>
    </nav>
  )
}

function Waiting({ href }: { href: string }) {
  const what = waiting(href)
  if (what === null || what.count === 0) return null
  return (
    <span class="contador" title={`${what.count} ${what.what}`}>
      {' '}
      ({what.count > 99 ? '99+' : what.count})<span class="oculto"> {what.what}</span>
    </span>
  )
}

async function logOut(): Promise<void> {
  try {
    await api.session.logOut()
  } finally {
    currentUser.value = null
    window.history.replaceState(null, '', '/consola/entrar')
  }
}
