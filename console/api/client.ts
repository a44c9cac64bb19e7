import type {
  ManifestPrint,
  MarkedPrints,
  PrintInvoice,
  ProductFilters,
  ProductReport,
  AdjustmentView,
  AuditEntryView,
  DepositChange,
  DepositFilters,
  DepositPage,
  DepositView,
  NewAdjustment,
  NewDeposit,
  SettlementRules,
  AuditFilters,
  BatchView,
  BulkApproval,
  ConflictDetail,
  ConflictView,
  DashboardView,
  ErrorBody,
  ExportFormat,
  InvoiceView,
  PendingCounts,
  SearchAnswer,
  WarehouseList,
  ManifestDetail,
  ManifestFilters,
  ManifestInvoiceFilters,
  ManifestInvoicePage,
  ManifestPage,
  ManifestView,
  NewReason,
  NewUser,
  Reason,
  ReasonChange,
  RegisterReturn,
  ReissueView,
  ReturnFilters,
  ReturnListItem,
  ReturnPage,
  ReturnView,
  ServiceStatus,
  SessionView,
  UserChange,
  UserView,
} from './types.ts'

/**
 * The console's only way to the service: the documented JSON API, with the session cookie the
 * browser holds. Every failure becomes an ApiError carrying the service's Spanish message.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly body: ErrorBody | null,
    /** Seconds to wait, from Retry-After (429). */
    readonly retryAfter: number | null = null,
  ) {
    super(message)
  }
}

/** Called when the session is gone (401 on anything but the login itself): the app asks to log in again. */
let onSessionLost: () => void = () => {}
export function whenSessionLost(handler: () => void): void {
  onSessionLost = handler
}

type Query = Record<string, string | number | boolean | undefined | null>

export function withQuery(path: string, query: Query = {}): string {
  const search = new URLSearchParams()
  for (const [key, value] of Object.entries(query))
    if (value !== undefined && value !== null && value !== '') search.set(key, String(value))
  const text = search.toString()
  return text === '' ? path : `${path}?${text}`
}

async function request<T>(
  method: string,
  path: string,
  body?: unknown,
  options: { sessionCheck?: boolean } = {},
): Promise<T> {
  return (await requestWithHeaders<T>(method, path, body, options)).body
}

async function requestWithHeaders<T>(
  method: string,
  path: string,
  body?: unknown,
  { sessionCheck = true } = {},
): Promise<{ body: T; headers: Headers }> {
  let response: Response
  try {
    response = await fetch(path, {
      method,
      credentials: 'same-origin',
      headers:
        body === undefined
          ? { Accept: 'application/json' }
          : { Accept: 'application/json', 'Content-Type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    })
  } catch {
    throw new ApiError(0, 'No hay conexión con el servicio. Revise la red del almacén y vuelva a intentarlo.', null)
  }
  if (response.status === 204) return { body: undefined as T, headers: response.headers }
  const text = await response.text()
  let parsed: unknown = null
  try {
    parsed = text === '' ? null : JSON.parse(text)
  } catch {
    parsed = null
  }
  if (!response.ok) {
    const errorBody =
      parsed !== null && typeof parsed === 'object' && 'message' in parsed ? (parsed as ErrorBody) : null
    const message =
      errorBody?.message ??
      `El servicio respondió ${response.status} sin explicación. Vuelva a intentarlo; si se repite, avise al administrador.`
    const retry = response.headers.get('Retry-After')
    if (response.status === 401 && sessionCheck) onSessionLost()
    throw new ApiError(response.status, message, errorBody, retry === null ? null : Number(retry))
  }
  return { body: parsed as T, headers: response.headers }
}

/**
 * A file the service makes (an export): fetched so that a refusal shows its Spanish message
 * instead of being saved as a file; the name comes from Content-Disposition.
 */
export async function downloadFile(path: string): Promise<{ name: string; blob: Blob }> {
  let response: Response
  try {
    response = await fetch(path, { credentials: 'same-origin' })
  } catch {
    throw new ApiError(0, 'No hay conexión con el servicio. Revise la red del almacén y vuelva a intentarlo.', null)
  }
  if (!response.ok) {
    let body: ErrorBody | null = null
    try {
      body = (await response.json()) as ErrorBody
    } catch {
      body = null
    }
    if (response.status === 401) onSessionLost()
    throw new ApiError(
      response.status,
      body?.message ?? `El servicio respondió ${response.status} sin explicación.`,
      body,
    )
  }
  const disposition = response.headers.get('Content-Disposition') ?? ''
  const name = /filename="([^"]+)"/.exec(disposition)?.[1] ?? 'descarga'
  return { name, blob: await response.blob() }
}

/**
 * Sends a file as the request's body (a deposit's receipt): its type as Content-Type, its name in
 * the address (the service refuses a file whose name or type says it is something else).
 */
async function sendFile<T>(path: string, file: Blob, name: string): Promise<T> {
  let response: Response
  try {
    response = await fetch(withQuery(path, { nombre: name }), {
      method: 'PUT',
      credentials: 'same-origin',
      headers: { Accept: 'application/json', 'Content-Type': file.type || 'application/octet-stream' },
      body: file,
    })
  } catch {
    throw new ApiError(0, 'No hay conexión con el servicio. Revise la red del almacén y vuelva a intentarlo.', null)
  }
  const parsed = (await response.json().catch(() => null)) as unknown
  if (!response.ok) {
    const errorBody =
      parsed !== null && typeof parsed === 'object' && 'message' in parsed ? (parsed as ErrorBody) : null
    if (response.status === 401) onSessionLost()
    throw new ApiError(
      response.status,
      errorBody?.message ?? `El servicio respondió ${response.status} sin explicación. Vuelva a intentarlo.`,
      errorBody,
    )
  }
  return parsed as T
}

const get = <T>(path: string, query?: Query) => request<T>('GET', withQuery(path, query))
const post = <T>(path: string, body: unknown = {}) => request<T>('POST', path, body)
const put = <T>(path: string, body: unknown) => request<T>('PUT', path, body)
const op = (path: string) => `/api/v1/operador/${path}`
const id = encodeURIComponent

export const api = {
  session: {
    current: () => request<SessionView>('GET', '/api/v1/sesion', undefined, { sessionCheck: false }),
    logIn: (usuario: string, contrasena: string) =>
      request<SessionView>('POST', '/api/v1/sesion', { usuario, contrasena }, { sessionCheck: false }),
    logOut: () => request<void>('DELETE', '/api/v1/sesion', undefined, { sessionCheck: false }),
    changePassword: (actual: string, nueva: string) => post<void>('/api/v1/sesion/contrasena', { actual, nueva }),
  },
  /** Today at a glance (Inicio). */
  dashboard: () => get<DashboardView>(op('resumen')),
  /** What waits for the person (the navigation's counts). */
  pending: () => get<PendingCounts>(op('pendientes')),
  /** The header search: invoices, manifests and returns of the person's warehouses. */
  search: (q: string, limite?: number) => get<SearchAnswer>(op('buscar'), { q, limite }),
  /** The configured warehouses (the user form's checkboxes). */
  warehouses: () => get<WarehouseList>(op('almacenes')),
  status: () => get<ServiceStatus>(op('estado')),
  manifests: {
    /** A page of manifests, newest first, with their pending conflicts and warehouses. */
    page: (query: ManifestFilters) => get<ManifestPage>(op('manifiestos'), { ...query, pagina: query.pagina ?? '1' }),
    exportUrl: (formato: ExportFormat, filters: Omit<ManifestFilters, 'pagina'>) =>
      withQuery(op('manifiestos/exportar'), { formato, ...filters }),
    get: (numero: string) => get<ManifestDetail>(op(`manifiestos/${id(numero)}`)),
    /** A page of a manifest's invoices, searchable by number, client or route. */
    invoices: (numero: string, query: ManifestInvoiceFilters) =>
      get<ManifestInvoicePage>(op(`manifiestos/${id(numero)}/facturas`), { ...query, pagina: query.pagina ?? '1' }),
    close: (numero: string, motivo?: string) =>
      post<ManifestView>(op(`manifiestos/${id(numero)}/cerrar`), motivo ? { motivo } : {}),
    reopen: (numero: string, motivo: string) => post<ManifestView>(op(`manifiestos/${id(numero)}/reabrir`), { motivo }),
    extend: (numero: string, hasta: string, motivo: string) =>
      post<ManifestView>(op(`manifiestos/${id(numero)}/plazo`), { hasta, motivo }),
  },
  invoices: {
    get: (nfactura: string) => get<InvoiceView>(op(`facturas/${id(nfactura)}`)),
  },
  /** What the print views read (issue 42) and the mark of printed invoices. */
  printing: {
    manifest: (numero: string, almacen?: string) =>
      get<ManifestPrint>(op(`manifiestos/${id(numero)}/impresion`), { almacen }),
    invoice: (nfactura: string) => get<PrintInvoice>(op(`facturas/${id(nfactura)}/impresion`)),
    /** These invoices are being printed now: the first print is the original, the next ones copies. */
    mark: (facturas: string[]) => post<MarkedPrints>(op('impresiones'), { facturas }),
    products: (query: ProductFilters) => get<ProductReport>(op('productos'), query),
  },
  /** The money of a manifest (issue 40): deposits, their receipts, cent adjustments. */
  settlement: {
    rules: () => get<SettlementRules>(op('liquidacion/reglas')),
    deposits: (numero: string) => get<DepositView[]>(op(`manifiestos/${id(numero)}/depositos`)),
    register: (numero: string, body: NewDeposit) => post<DepositView>(op(`manifiestos/${id(numero)}/depositos`), body),
    change: (deposito: string, body: DepositChange) => put<DepositView>(op(`depositos/${id(deposito)}`), body),
    cancel: (deposito: string, motivo: string) => post<DepositView>(op(`depositos/${id(deposito)}/anular`), { motivo }),
    /** The receipt's address: an image shows in the browser, a PDF downloads. */
    receiptUrl: (deposito: string) => op(`depositos/${id(deposito)}/comprobante`),
    uploadReceipt: (deposito: string, file: Blob, name: string) =>
      sendFile<DepositView>(op(`depositos/${id(deposito)}/comprobante`), file, name),
    adjustments: (numero: string) => get<AdjustmentView[]>(op(`manifiestos/${id(numero)}/ajustes`)),
    adjust: (numero: string, body: NewAdjustment) =>
      post<AdjustmentView>(op(`manifiestos/${id(numero)}/ajustes`), body),
    /** A page of deposits (newest slip first) with the totals of all that match. */
    page: (query: DepositFilters) => get<DepositPage>(op('depositos'), { ...query, pagina: query.pagina ?? '1' }),
    exportUrl: (formato: ExportFormat, filters: Omit<DepositFilters, 'pagina'>) =>
      withQuery(op('depositos/exportar'), { formato, ...filters }),
  },
  returns: {
    /** A page of returns, newest first, with their client and warehouse. */
    page: (query: ReturnFilters) => get<ReturnPage>(op('devoluciones'), { ...query, pagina: query.pagina ?? '1' }),
    /** All of them approved in one transaction, or none (the 422 names the first that cannot be). */
    approveMany: (ids: string[]) => post<BulkApproval>(op('devoluciones/aprobar'), { ids }),
    /** The address of the listed returns' file (made by the service), one row per return line. */
    exportUrl: (formato: ExportFormat, filters: Omit<ReturnFilters, 'pagina'>) =>
      withQuery(op('devoluciones/exportar'), { formato, ...filters }),
    get: (devolucion: string) => get<ReturnListItem>(op(`devoluciones/${id(devolucion)}`)),
    register: (body: RegisterReturn) => post<ReturnView>(op('devoluciones'), body),
    approve: (devolucion: string) => post<ReturnView>(op(`devoluciones/${id(devolucion)}/aprobar`)),
    reject: (devolucion: string, motivo: string) =>
      post<ReturnView>(op(`devoluciones/${id(devolucion)}/rechazar`), { motivo }),
    cancel: (devolucion: string, motivo: string) =>
      post<ReturnView>(op(`devoluciones/${id(devolucion)}/anular`), { motivo }),
  },
  reasons: {
    list: () => get<Reason[]>(op('conceptos')),
    create: (body: NewReason) => post<Reason>(op('conceptos'), body),
    change: (codigo: string, body: ReasonChange) => put<Reason>(op(`conceptos/${id(codigo)}`), body),
  },
  conflicts: {
    list: (estado: 'pending' | 'accepted' | 'discarded' = 'pending') =>
      get<ConflictView[]>(op('conflictos'), { estado }),
    /** One conflict with the lines that differ between its versions, as the service compares them. */
    get: (conflicto: string) => get<ConflictDetail>(op(`conflictos/${id(conflicto)}`)),
    accept: (conflicto: string, nota?: string) =>
      post<ConflictView>(op(`conflictos/${id(conflicto)}/aceptar`), nota ? { nota } : {}),
    discard: (conflicto: string, nota?: string) =>
      post<ConflictView>(op(`conflictos/${id(conflicto)}/descartar`), nota ? { nota } : {}),
  },
  reissues: {
    list: (estado: 'pending' | 'confirmed' | 'discarded' = 'pending') =>
      get<ReissueView[]>(op('reemisiones'), { estado }),
    confirm: (reemision: string, nota?: string) =>
      post<ReissueView>(op(`reemisiones/${id(reemision)}/confirmar`), nota ? { nota } : {}),
    discard: (reemision: string, nota?: string) =>
      post<ReissueView>(op(`reemisiones/${id(reemision)}/descartar`), nota ? { nota } : {}),
  },
  batches: {
    list: (fecha?: string) => get<BatchView[]>(op('lotes'), { fecha }),
    get: (uuid: string) => get<BatchView>(op(`lotes/${id(uuid)}`)),
    payloadUrl: (uuid: string) => op(`lotes/${id(uuid)}/payload`),
  },
  audit: {
    /** A page of the audit log (500 entries) and whether there is a next one (X-Hay-Mas). */
    page: async (query: Partial<Record<keyof AuditFilters, string>>) => {
      const answer = await requestWithHeaders<AuditEntryView[]>('GET', withQuery(op('auditoria'), query))
      return { entries: answer.body, hasMore: answer.headers.get('X-Hay-Mas') === 'true' }
    },
  },
  users: {
    list: () => get<UserView[]>(op('usuarios')),
    create: (body: NewUser) => post<UserView>(op('usuarios'), body),
    change: (usuario: string, body: UserChange) => put<UserView>(op(`usuarios/${id(usuario)}`), body),
    setPassword: (usuario: string, contrasena: string) =>
      post<UserView>(op(`usuarios/${id(usuario)}/contrasena`), { contrasena }),
    /** Lifts the lock of failed logins before its 15 minutes end (422 when the account is not locked). */
    unlock: (usuario: string) => post<UserView>(op(`usuarios/${id(usuario)}/desbloquear`)),
  },
}
