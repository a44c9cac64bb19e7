import type {
  AuditEntryView,
  AuditFilters,
  BatchView,
  ConflictView,
  ErrorBody,
  InvoiceView,
  ManifestDetail,
  ManifestView,
  NewReason,
  NewUser,
  Reason,
  ReasonChange,
  RegisterReturn,
  ReissueView,
  ReturnState,
  ReturnView,
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
  for (const [key, value] of Object.entries(query)) if (value !== undefined && value !== null && value !== '') search.set(key, String(value))
  const text = search.toString()
  return text === '' ? path : `${path}?${text}`
}

async function request<T>(method: string, path: string, body?: unknown, { sessionCheck = true } = {}): Promise<T> {
  let response: Response
  try {
    response = await fetch(path, {
      method,
      credentials: 'same-origin',
      headers: body === undefined ? { Accept: 'application/json' } : { Accept: 'application/json', 'Content-Type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    })
  } catch {
    throw new ApiError(0, 'No hay conexión con el servicio. Revise la red del almacén y vuelva a intentarlo.', null)
  }
  if (response.status === 204) return undefined as T
  const text = await response.text()
  let parsed: unknown = null
  try {
    parsed = text === '' ? null : JSON.parse(text)
  } catch {
    parsed = null
  }
  if (!response.ok) {
    const errorBody = parsed !== null && typeof parsed === 'object' && 'message' in parsed ? (parsed as ErrorBody) : null
    const message = errorBody?.message ?? `El servicio respondió ${response.status} sin explicación. Vuelva a intentarlo; si se repite, avise al administrador.`
    const retry = response.headers.get('Retry-After')
    if (response.status === 401 && sessionCheck) onSessionLost()
    throw new ApiError(response.status, message, errorBody, retry === null ? null : Number(retry))
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
    logIn: (usuario: string, contrasena: string) => request<SessionView>('POST', '/api/v1/sesion', { usuario, contrasena }, { sessionCheck: false }),
    logOut: () => request<void>('DELETE', '/api/v1/sesion', undefined, { sessionCheck: false }),
    changePassword: (actual: string, nueva: string) => post<void>('/api/v1/sesion/contrasena', { actual, nueva }),
  },
  manifests: {
    list: (query: { estado?: 'imported' | 'closed'; desde?: string; hasta?: string }) => get<ManifestView[]>(op('manifiestos'), query),
    get: (numero: string) => get<ManifestDetail>(op(`manifiestos/${id(numero)}`)),
    close: (numero: string, motivo?: string) => post<ManifestView>(op(`manifiestos/${id(numero)}/cerrar`), motivo ? { motivo } : {}),
    reopen: (numero: string, motivo: string) => post<ManifestView>(op(`manifiestos/${id(numero)}/reabrir`), { motivo }),
    extend: (numero: string, hasta: string, motivo: string) => post<ManifestView>(op(`manifiestos/${id(numero)}/plazo`), { hasta, motivo }),
  },
  invoices: {
    get: (nfactura: string) => get<InvoiceView>(op(`facturas/${id(nfactura)}`)),
  },
  returns: {
    list: (query: { fecha?: string; estado?: ReturnState }) => get<ReturnView[]>(op('devoluciones'), query),
    get: (devolucion: string) => get<ReturnView>(op(`devoluciones/${id(devolucion)}`)),
    register: (body: RegisterReturn) => post<ReturnView>(op('devoluciones'), body),
    approve: (devolucion: string) => post<ReturnView>(op(`devoluciones/${id(devolucion)}/aprobar`)),
    reject: (devolucion: string, motivo: string) => post<ReturnView>(op(`devoluciones/${id(devolucion)}/rechazar`), { motivo }),
    cancel: (devolucion: string, motivo: string) => post<ReturnView>(op(`devoluciones/${id(devolucion)}/anular`), { motivo }),
  },
  reasons: {
    list: () => get<Reason[]>(op('conceptos')),
    create: (body: NewReason) => post<Reason>(op('conceptos'), body),
    change: (codigo: string, body: ReasonChange) => put<Reason>(op(`conceptos/${id(codigo)}`), body),
  },
  conflicts: {
    list: (estado: 'pending' | 'accepted' | 'discarded' = 'pending') => get<ConflictView[]>(op('conflictos'), { estado }),
    accept: (conflicto: string, nota?: string) => post<ConflictView>(op(`conflictos/${id(conflicto)}/aceptar`), nota ? { nota } : {}),
    discard: (conflicto: string, nota?: string) => post<ConflictView>(op(`conflictos/${id(conflicto)}/descartar`), nota ? { nota } : {}),
  },
  reissues: {
    list: (estado: 'pending' | 'confirmed' | 'discarded' = 'pending') => get<ReissueView[]>(op('reemisiones'), { estado }),
    confirm: (reemision: string, nota?: string) => post<ReissueView>(op(`reemisiones/${id(reemision)}/confirmar`), nota ? { nota } : {}),
    discard: (reemision: string, nota?: string) => post<ReissueView>(op(`reemisiones/${id(reemision)}/descartar`), nota ? { nota } : {}),
  },
  batches: {
    list: (fecha?: string) => get<BatchView[]>(op('lotes'), { fecha }),
    get: (uuid: string) => get<BatchView>(op(`lotes/${id(uuid)}`)),
    payloadUrl: (uuid: string) => op(`lotes/${id(uuid)}/payload`),
  },
  audit: {
    list: (query: Partial<Record<keyof AuditFilters, string>>) => get<AuditEntryView[]>(op('auditoria'), query),
  },
  users: {
    list: () => get<UserView[]>(op('usuarios')),
    create: (body: NewUser) => post<UserView>(op('usuarios'), body),
    change: (usuario: string, body: UserChange) => put<UserView>(op(`usuarios/${id(usuario)}`), body),
    setPassword: (usuario: string, contrasena: string) => post<UserView>(op(`usuarios/${id(usuario)}/contrasena`), { contrasena }),
  },
}
