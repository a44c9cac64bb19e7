import Type from 'typebox'
import { sessionCookie } from '../http/authentication.ts'
import { defineRoute, type Route } from '../http/route.ts'
import { errorResponse } from '../http/schemas.ts'
import {
  ChangeOwnPasswordBody,
  CreateUserBody,
  WarehouseList,
  LoginBody,
  SessionView,
  SetPasswordBody,
  UpdateUserBody,
  UserParams,
  UserView,
} from './accounts.schemas.ts'
import { changeOwnPassword, logIn, logOut, sessionViewOf, type SessionDeps } from './sessions.service.ts'
import { changeUser, createUser, listUsers, setUserPassword, unlockUser, type AccountsDeps } from './users.service.ts'

export type AccountRouteDeps = AccountsDeps & SessionDeps

const SESSIONS = 'operador: sesión'
const USERS = 'operador: usuarios'
const notFoundUser = (raw: Record<string, string>) => `No existe el usuario ${raw.usuario ?? ''}.`

export function accountRoutes(deps: AccountRouteDeps): Route[] {
  return [
    defineRoute({
      method: 'POST',
      path: '/api/v1/sesion',
      access: 'public',
      operationId: 'iniciarSesion',
      rateGroup: 'login',
      tag: SESSIONS,
      summary: 'Inicia la sesión de una persona (cookie manifiesto_sesion)',
      description:
        'Un usuario o una contraseña incorrectos dan la misma respuesta. Tras 5 intentos fallidos en 15 minutos, ese usuario queda bloqueado 15 minutos (429 con Retry-After), aun con la contraseña correcta.',
      body: { description: 'Usuario y contraseña', schema: LoginBody },
      responses: {
        200: { description: 'Sesión iniciada; la cookie HttpOnly manifiesto_sesion la lleva', schema: SessionView },
        401: errorResponse('Usuario o contraseña incorrectos'),
        429: errorResponse('Demasiados intentos: del usuario (15 minutos) o de esta IP por minuto (ver Retry-After)'),
      },
      handle: async ({ body, clientIp, secure }) => {
        const login = await logIn(deps, body.usuario, body.contrasena, clientIp)
        return {
          status: 200,
          body: login.user,
          headers: { 'Set-Cookie': sessionCookie(login.token, secure), 'Cache-Control': 'no-store' },
        }
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/api/v1/sesion',
      access: 'person',
      operationId: 'obtenerSesion',
      rateGroup: 'operator',
      tag: SESSIONS,
      summary: 'La persona de la sesión actual',
      responses: { 200: { description: 'La persona de la sesión', schema: SessionView } },
      handle: ({ actor }) => ({ status: 200, body: sessionViewOf(actor), headers: { 'Cache-Control': 'no-store' } }),
    }),
    defineRoute({
      method: 'DELETE',
      path: '/api/v1/sesion',
      access: 'person',
      operationId: 'cerrarSesion',
      rateGroup: 'operator',
      tag: SESSIONS,
      summary: 'Cierra la sesión actual',
      responses: { 204: { description: 'Sesión cerrada; la cookie se borra' } },
      handle: ({ sessionToken, secure }) => {
        if (sessionToken !== null) logOut(deps, sessionToken)
        return {
          status: 204,
          bytes: Buffer.alloc(0),
          contentType: 'text/plain',
          headers: { 'Set-Cookie': sessionCookie(null, secure) },
        }
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/api/v1/sesion/contrasena',
      access: 'person',
      operationId: 'cambiarMiContrasena',
      rateGroup: 'operator',
      tag: SESSIONS,
      summary: 'Cambia la contraseña propia y cierra las demás sesiones de la persona',
      body: { description: 'La contraseña actual y la nueva', schema: ChangeOwnPasswordBody },
      responses: {
        204: { description: 'Contraseña cambiada' },
        422: errorResponse('Contraseña actual incorrecta, o la nueva no cumple las reglas'),
      },
      handle: async ({ actor, sessionToken, body }) => {
        await changeOwnPassword(deps, actor, sessionToken ?? '', body.actual, body.nueva)
        return { status: 204, bytes: Buffer.alloc(0), contentType: 'text/plain' }
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/api/v1/operador/almacenes',
      access: 'operator',
      right: 'leer',
      operationId: 'listarAlmacenes',
      rateGroup: 'operator',
      tag: USERS,
      summary: 'Los almacenes registrados (warehouses de la configuración)',
      description: 'Los que se pueden asignar a un usuario; la consola los ofrece como casillas.',
      responses: { 200: { description: 'Los códigos, en el orden de la configuración', schema: WarehouseList } },
      handle: () => ({ status: 200, body: { almacenes: [...deps.warehouses] } }),
    }),
    defineRoute({
      method: 'GET',
      path: '/api/v1/operador/usuarios',
      access: 'operator',
      right: 'gestionar_usuarios',
      operationId: 'listarUsuarios',
      rateGroup: 'operator',
      tag: USERS,
      summary: 'Usuarios (solo administradores)',
      responses: { 200: { description: 'Los usuarios, por nombre de usuario', schema: Type.Array(UserView) } },
      handle: () => ({ status: 200, body: listUsers(deps) }),
    }),
    defineRoute({
      method: 'POST',
      path: '/api/v1/operador/usuarios',
      access: 'operator',
      right: 'gestionar_usuarios',
      operationId: 'crearUsuario',
      rateGroup: 'operator',
      tag: USERS,
      summary: 'Crea un usuario con su contraseña inicial (solo administradores)',
      body: { description: 'El usuario', schema: CreateUserBody },
      responses: {
        201: { description: 'Usuario creado', schema: UserView },
        422: errorResponse('Usuario existente, almacén desconocido o contraseña que no cumple las reglas'),
      },
      handle: async ({ actor, body }) => ({ status: 201, body: await createUser(deps, actor, body) }),
    }),
    defineRoute({
      method: 'PUT',
      path: '/api/v1/operador/usuarios/:usuario',
      access: 'operator',
      right: 'gestionar_usuarios',
      operationId: 'cambiarUsuario',
      rateGroup: 'operator',
      tag: USERS,
      summary: 'Cambia nombre, rol, almacenes o si está activo (solo administradores); desactivar cierra sus sesiones',
      params: UserParams,
      paramsNotFound: notFoundUser,
      body: { description: 'Los campos a cambiar (o el usuario tal como lo da GET)', schema: UpdateUserBody },
      responses: {
        200: { description: 'Usuario cambiado', schema: UserView },
        404: errorResponse('No existe el usuario'),
        422: errorResponse('Dejaría sin administrador activo, renombraría el usuario, o almacén desconocido'),
      },
      handle: ({ actor, params, body }) => ({ status: 200, body: changeUser(deps, actor, params.usuario, body) }),
    }),
    defineRoute({
      method: 'POST',
      path: '/api/v1/operador/usuarios/:usuario/contrasena',
      access: 'operator',
      right: 'gestionar_usuarios',
      operationId: 'restablecerContrasena',
      rateGroup: 'operator',
      tag: USERS,
      summary: 'Pone una contraseña nueva a un usuario, cierra sus sesiones y lo desbloquea (solo administradores)',
      params: UserParams,
      paramsNotFound: notFoundUser,
      body: { description: 'La contraseña nueva', schema: SetPasswordBody },
      responses: {
        200: { description: 'Contraseña puesta', schema: UserView },
        404: errorResponse('No existe el usuario'),
        422: errorResponse('La contraseña no cumple las reglas'),
      },
      handle: async ({ actor, params, body }) => ({
        status: 200,
        body: await setUserPassword(deps, actor, params.usuario, body.contrasena),
      }),
    }),
    defineRoute({
      method: 'POST',
      path: '/api/v1/operador/usuarios/:usuario/desbloquear',
      access: 'operator',
      right: 'gestionar_usuarios',
      operationId: 'desbloquearUsuario',
      rateGroup: 'operator',
      tag: USERS,
      summary:
        'Desbloquea un usuario bloqueado por intentos fallidos, sin esperar los 15 minutos (solo administradores)',
      description:
        'Tras 5 intentos fallidos en 15 minutos un usuario queda bloqueado 15 minutos (bloqueado_hasta en su vista). Desbloquearlo lo deja entrar enseguida con su contraseña ' +
        'y olvida los intentos fallidos; sus sesiones y su contraseña no cambian. Queda en la auditoría (usuario.desbloqueado). Un usuario que no está bloqueado responde 422 y nada cambia.',
      params: UserParams,
      paramsNotFound: notFoundUser,
      responses: {
        200: { description: 'Usuario desbloqueado (bloqueado_hasta: null)', schema: UserView },
        404: errorResponse('No existe el usuario'),
        422: errorResponse('El usuario no está bloqueado'),
      },
      handle: ({ actor, params }) => ({ status: 200, body: unlockUser(deps, actor, params.usuario) }),
    }),
  ]
}
