import { runBackupCommand } from './commands/backup.ts'
import { runCheckCommand } from './commands/check.ts'
import { HELP, USAGE, type CommandName } from './commands/help.ts'
import { complain, say, type CliIo } from './commands/io.ts'
import { parseCommandLine } from './commands/command-line.ts'
import { runRestoreCommand } from './commands/restore.ts'
import { describeCommandFailure } from './commands/start-failure.ts'
import { runUserCommand } from './commands/users.ts'
import { ConfigError, loadConfig } from './config/config.ts'
import { sqliteVersion } from './db/database.ts'
import { DatabaseTooNewError, ForeignDatabaseError } from './db/migrate.ts'
import { serve } from './app/main.ts'
import { VERSION } from './core/version.ts'

export type { CliIo }

/** What `runCli` returns for `serve` once it listens: no exit code yet, the service runs until a signal stops it. */
export const SERVING = -1

/**
 * The command line: `argv` without the program's name, and the process it runs in passed as `io`
 * (nothing is read from the process here, and nothing runs when this module is imported; the
 * program's entry, src/manifiesto.ts, calls it).
 * @returns the exit code: 0 fine, 1 failure (unhealthy, cannot start, refused), 2 bad
 * configuration or usage, 130 cancelled with Ctrl+C; SERVING for `serve` once it listens (the
 * service then runs until a signal stops it, and `io.serving` is given its handle).
 */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  const parsed = parseCommandLine(argv)
  if (parsed.kind === 'problem') {
    complain(io, `${parsed.message}\n\n${USAGE}`)
    return 2
  }
  if (parsed.kind === 'help') {
    say(io, parsed.command === null ? USAGE : HELP[parsed.command])
    return 0
  }
  const { command, rest, options } = parsed
  if (command === 'version') {
    say(io, `manifiesto ${VERSION} (node ${process.versions.node}, sqlite ${sqliteVersion()})`)
    return 0
  }
  let configuredDatabase = ''
  try {
    const loaded = loadConfig({ flag: options.config, cwd: io.cwd, ...(io.env === undefined ? {} : { env: io.env }) })
    configuredDatabase = loaded.config.database.path
    const run: Record<Exclude<CommandName, 'version'>, () => Promise<number>> = {
      usuario: async () => {
        const result = await runUserCommand(
          loaded,
          rest[0],
          rest[1],
          {
            rol: options.rol,
            nombre: options.nombre,
            almacenes: options.almacenes,
            contrasenaStdin: options['contrasena-stdin'],
          },
          io,
        )
        for (const line of result.lines) (result.code === 0 ? say : complain)(io, line)
        return result.code
      },
      check: () => runCheckCommand(loaded, rest[0], io),
      backup: () => runBackupCommand(loaded, rest[0]!, io),
      restaurar: () => runRestoreCommand(loaded, rest[0]!, { owner: options.propietario }, io),
      serve: async () => {
        const service = await serve(loaded, { stdout: io.stdout })
        io.serving?.(service)
        return SERVING
      },
    }
    return await run[command]()
  } catch (error) {
    if (error instanceof ConfigError) {
      complain(
        io,
        `${error.unreadable ? 'No se puede leer la configuración' : 'Configuración inválida'}: ${error.message}`,
      )
      return 2
    }
    if (error instanceof DatabaseTooNewError || error instanceof ForeignDatabaseError) {
      complain(io, error.message)
      return 1
    }
    complain(io, describeCommandFailure(command, error, configuredDatabase))
    return 1
  }
}
