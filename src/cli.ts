import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { backupDatabase } from './backup/backup.service.ts'
import { checkInstallation } from './commands/check.ts'
import { describeStartFailure } from './commands/start-failure.ts'
import { runUserCommand } from './commands/users.ts'
import { closeDatabase, openDatabase, sqliteVersion } from './db/database.ts'
import { ConfigError, loadConfig } from './config/config.ts'
import { DatabaseTooNewError, ForeignDatabaseError } from './db/migrate.ts'
import { serve } from './app/main.ts'
import { VERSION } from './core/version.ts'

const USAGE = `manifiesto ${VERSION}

Uso:
  manifiesto [serve] [--config ARCHIVO]   inicia el servicio (comando por defecto)
  manifiesto check [BASE] [--config ARCHIVO]
                                          valida la configuración y la integridad de la base de datos
                                          (o de BASE, por ejemplo una copia de seguridad)
  manifiesto backup ARCHIVO [--config ARCHIVO]
                                          copia consistente de la base de datos, aun con el servicio en marcha
  manifiesto version | --version | -v     muestra la versión
  manifiesto usuario crear NOMBRE --rol admin|supervisor|finanzas|operador [--nombre "…"] [--almacenes OAC,OAS] [--contrasena-stdin]
                                          crea una cuenta personal (la contraseña se pide dos veces, sin mostrarla)
  manifiesto usuario restablecer NOMBRE [--contrasena-stdin]
                                          pone una contraseña nueva, cierra sus sesiones y lo desbloquea
  manifiesto usuario desbloquear NOMBRE   lo desbloquea tras intentos fallidos, sin cambiar su contraseña
  manifiesto usuario listar               lista las cuentas

Configuración: --config ARCHIVO, si no MANIFIESTO_CONFIG, si no ./config.json, si no los valores por defecto.
Códigos de salida: 0 bien, 1 fallo, 2 configuración o uso inválidos.`

/** Exit codes: 0 fine, 1 failure (unhealthy, cannot start), 2 bad configuration or usage. */
export async function runCli(argv: string[]): Promise<number> {
  let parsed
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        config: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean', short: 'v' },
        rol: { type: 'string' },
        nombre: { type: 'string' },
        almacenes: { type: 'string' },
        'contrasena-stdin': { type: 'boolean' },
      },
    })
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${USAGE}`)
    return 2
  }
  const [command = parsed.values.version ? 'version' : 'serve', ...rest] = parsed.positionals
  if (parsed.values.help || command === 'help') {
    console.log(USAGE)
    return 0
  }
  const usageProblem = describeUsageProblem(command, rest)
  if (usageProblem !== null) {
    console.error(`${usageProblem}\n\n${USAGE}`)
    return 2
  }
  if (command === 'version') {
    console.log(`manifiesto ${VERSION} (node ${process.versions.node}, sqlite ${sqliteVersion()})`)
    return 0
  }
  let configuredDatabase = ''
  try {
    const loaded = loadConfig({ flag: parsed.values.config })
    configuredDatabase = loaded.config.database.path
    if (command === 'usuario') {
      const { rol, nombre, almacenes } = parsed.values
      const result = await runUserCommand(loaded, rest[0], rest[1], { rol, nombre, almacenes, contrasenaStdin: parsed.values['contrasena-stdin'] })
      for (const line of result.lines) (result.code === 0 ? console.log : console.error)(line)
      return result.code
    }
    if (command === 'check') {
      const report = checkInstallation(loaded, rest[0] === undefined ? undefined : resolve(rest[0]))
      console.log(report.lines.join('\n'))
      return report.healthy ? 0 : 1
    }
    if (command === 'backup') {
      const db = openDatabase(loaded.config.database.path, { mustExist: true })
      try {
        const result = await backupDatabase({ db }, resolve(rest[0]!))
        console.log(`copia de seguridad creada: ${result.file} (${result.bytes} bytes); verifíquela con: manifiesto check ${result.file}`)
        return 0
      } finally {
        closeDatabase(db)
      }
    }
    await serve(loaded)
    return -1 // keep running
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`Configuración inválida: ${error.message}`)
      return 2
    }
    if (error instanceof DatabaseTooNewError || error instanceof ForeignDatabaseError) {
      console.error(error.message)
      return 1
    }
    console.error(describeStartFailure(error, configuredDatabase))
    return 1
  }
}

/** What each command takes: its required arguments, then its optional ones, by the names the usage gives them. */
const ARGUMENTS: Record<string, { required: string[]; optional: string[]; example?: string }> = {
  serve: { required: [], optional: [] },
  check: { required: [], optional: ['BASE'] },
  backup: { required: ['ARCHIVO'], optional: [], example: '(la ruta de la copia, por ejemplo /var/lib/manifiesto/backups/manual.db)' },
  version: { required: [], optional: [] },
  usuario: { required: ['crear|restablecer|desbloquear|listar'], optional: ['NOMBRE'] },
}

/** One Spanish line naming what is wrong with the command line (an unknown command, a missing or extra argument), or null. */
function describeUsageProblem(command: string, rest: readonly string[]): string | null {
  const spec = ARGUMENTS[command]
  if (spec === undefined) return `Comando desconocido: «${command}».`
  const form = `manifiesto ${[command, ...spec.required, ...spec.optional.map((name) => `[${name}]`)].join(' ')}`
  const missing = spec.required[rest.length]
  if (missing !== undefined) return `Falta el argumento ${missing}: ${form}${spec.example === undefined ? '' : ` ${spec.example}`}.`
  const extra = rest[spec.required.length + spec.optional.length]
  if (extra !== undefined) return `Sobra el argumento «${extra}»: ${form}.`
  return null
}

// No top-level await: the single executable runs this file as CommonJS.
void runCli(process.argv.slice(2)).then((code) => {
  if (code >= 0) process.exitCode = code
})
