import { VERSION } from '../core/version.ts'

export const COMMANDS = ['serve', 'check', 'backup', 'restaurar', 'version', 'usuario'] as const
export type CommandName = (typeof COMMANDS)[number]

/** What each command takes: its required arguments, then its optional ones, by the names the usage gives them. */
export const ARGUMENTS: Record<CommandName, { required: string[]; optional: string[]; example?: string }> = {
  serve: { required: [], optional: [] },
  check: { required: [], optional: ['BASE'] },
  backup: {
    required: ['ARCHIVO'],
    optional: [],
    example: '(la ruta de la copia, por ejemplo /var/lib/manifiesto/backups/manual.db)',
  },
  restaurar: {
    required: ['COPIA'],
    optional: [],
    example: '(el archivo de la copia, por ejemplo /var/lib/manifiesto/backups/manifiesto-2026-11-22T10-00-00.db)',
  },
  version: { required: [], optional: [] },
  usuario: { required: ['crear|restablecer|desbloquear|listar'], optional: ['NOMBRE'] },
}

export const USAGE = `manifiesto ${VERSION}

Uso:
  manifiesto [serve] [--config ARCHIVO]   inicia el servicio (comando por defecto)
  manifiesto check [BASE] [--config ARCHIVO]
                                          valida la configuración y la integridad de la base de datos
                                          (o de BASE, por ejemplo una copia de seguridad); solo lee
  manifiesto backup ARCHIVO [--config ARCHIVO]
                                          copia consistente de la base de datos, aun con el servicio en marcha
  manifiesto restaurar COPIA [--config ARCHIVO] [--propietario USUARIO]
                                          pone una copia de seguridad en lugar de la base de datos,
                                          con el servicio detenido (manifiesto restaurar --help)
  manifiesto version | --version | -v     muestra la versión
  manifiesto usuario crear NOMBRE --rol admin|supervisor|finanzas|operador [--nombre "…"] [--almacenes OAC,OAS] [--contrasena-stdin]
                                          crea una cuenta personal (la contraseña se pide dos veces, sin mostrarla)
  manifiesto usuario restablecer NOMBRE [--contrasena-stdin]
                                          pone una contraseña nueva, cierra sus sesiones y lo desbloquea
  manifiesto usuario desbloquear NOMBRE   lo desbloquea tras intentos fallidos, sin cambiar su contraseña
  manifiesto usuario listar               lista las cuentas
  manifiesto COMANDO --help               la ayuda de un comando

Configuración: --config ARCHIVO, si no MANIFIESTO_CONFIG, si no ./config.json, si no los valores por defecto.
Códigos de salida: 0 bien, 1 fallo, 2 configuración o uso inválidos.`

const RESTORE_HELP = `manifiesto restaurar COPIA [--config ARCHIVO] [--propietario USUARIO]

Pone la copia de seguridad COPIA en lugar de la base de datos de la configuración (database.path).
Se hace con el servicio DETENIDO: si está en marcha con esa base de datos, no cambia nada y lo dice.

Pasos, cada uno con su resultado en pantalla:
  1. Revisa la copia: que sea una base de datos de manifiesto, de esta versión o anterior, y que
     pase la verificación de integridad de SQLite (con su avance en pantalla).
  2. Crea la carpeta de la base de datos si no existe (en un servidor nuevo), del usuario del
     servicio y solo para él (Linux: modo 750; Windows: permiso de modificar para NT SERVICE\\manifiesto).
  3. Guarda la base de datos actual al lado, con la fecha en el nombre
     (manifiesto-antes-de-restaurar-AAAA-MM-DDTHH-MM-SS.db), sin borrar nada.
  4. Copia COPIA a la carpeta con un nombre temporal y la renombra: nunca queda una base a medias.
  5. Dice cómo iniciar el servicio y qué días de lotes pedir de nuevo al proveedor.

Opciones:
  --config ARCHIVO       la configuración del servicio (la misma que usa serve)
  --propietario USUARIO  Linux, ejecutado como root: el dueño de la carpeta y del archivo
                         (por defecto, el dueño de la carpeta de datos, o el usuario manifiesto)

Ejemplos:
  sudo systemctl stop manifiesto
  sudo /opt/manifiesto/manifiesto restaurar /var/lib/manifiesto/backups/manifiesto-2026-11-22T10-00-00.db --config /etc/manifiesto/config.json
  sudo systemctl start manifiesto

  Stop-Service manifiesto
  C:\\manifiesto\\manifiesto.exe restaurar C:\\manifiesto\\backups\\manifiesto-2026-11-22T10-00-00.db --config C:\\manifiesto\\config.json
  Start-Service manifiesto

Códigos de salida: 0 restaurada, 1 no se restauró (la copia está dañada, el servicio está en marcha…), 2 uso inválido.`

const BACKUP_HELP = `manifiesto backup ARCHIVO [--config ARCHIVO]

Escribe en ARCHIVO una copia consistente de la base de datos, también con el servicio en marcha,
la verifica (integridad de SQLite) y dice cuánto tardó y cuánto ocupa. En una terminal muestra el
avance en una línea; si no (un servicio o una tarea programada), una línea por cada paso.
La carpeta de ARCHIVO se crea si no existe. Verifique la copia cuando quiera con
manifiesto check ARCHIVO, y restáurela con manifiesto restaurar ARCHIVO.

Códigos de salida: 0 copia escrita y verificada, 1 no se pudo (el mensaje dice qué carpeta revisar), 2 uso inválido.`

const CHECK_HELP = `manifiesto check [BASE] [--config ARCHIVO]

Valida la configuración, que el servicio pueda crear o escribir sus carpetas, y ejecuta la
verificación de integridad de SQLite en la base de datos (o en BASE, por ejemplo una copia), con
su avance en pantalla. Solo lee: nunca crea, cambia ni migra la base de datos.

Códigos de salida: 0 bien, 1 hay un problema (el mensaje dice cuál y qué hacer), 2 configuración o uso inválidos.`

/** The help of each command (`manifiesto COMANDO --help`); the commands without their own show the usage. */
export const HELP: Record<CommandName, string> = {
  serve: USAGE,
  check: CHECK_HELP,
  backup: BACKUP_HELP,
  restaurar: RESTORE_HELP,
  version: USAGE,
  usuario: USAGE,
}
