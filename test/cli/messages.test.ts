import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import { closeDatabase, openDatabase } from '../../src/db/database.ts'
import { migrateDatabase } from '../../src/db/migrate.ts'
import { DERIVED_VALUES } from '../../src/app/derived-values.ts'
import { runCli } from '../support/cli.ts'

/**
 * What an administrator reads when something is wrong (issue 44, items 2, 3 and 7): each row is
 * what was typed and the folder it was typed in → the exit code → the Spanish message, which names
 * the key, option or path at fault and says what to do — never the parser's English, never the
 * database blamed for a folder of the copy.
 */
interface Row {
  name: string
  /** Prepares the folder; returns the command line, or why this machine cannot run the row. */
  setup: (dir: string) => { args: string[]; env?: Record<string, string> } | { skip: string }
  code: number
  stream: 'stdout' | 'stderr'
  says: RegExp
  /** What the message must not say. */
  never?: RegExp
  cleanup?: (dir: string) => void
}

const isRoot = process.getuid?.() === 0

/** A read-only file system at `path` (root only; a test machine without it skips the row). */
function readOnlyMount(path: string): string | null {
  mkdirSync(path, { recursive: true })
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'ro,size=1m', 'none', path], { stdio: 'ignore' })
    return null
  } catch (error) {
    return `no se puede montar un sistema de archivos de solo lectura aquí: ${(error as Error).message.split('\n')[0]}`
  }
}

function unmount(path: string): void {
  try {
    execFileSync('umount', [path], { stdio: 'ignore' })
  } catch {
    // Not mounted (the row was skipped).
  }
}

function withDatabase(dir: string): void {
  const db = openDatabase(join(dir, 'data', 'manifiesto.db'))
  migrateDatabase(db, DERIVED_VALUES)
  closeDatabase(db)
}

function config(dir: string, content: string | Buffer): string {
  writeFileSync(join(dir, 'config.json'), content)
  return join(dir, 'config.json')
}

const rows: Row[] = [
  // Item 7: the command line and the configuration file, in Spanish, with the next step.
  {
    name: '--config without a value',
    setup: () => ({ args: ['check', '--config'] }),
    code: 2,
    stream: 'stderr',
    says: /^Falta el valor de --config: escriba --config ARCHIVO \(la ruta del archivo de configuración, por ejemplo \/etc\/manifiesto\/config\.json\)\.\n/,
    never: /Option|argument missing/,
  },
  {
    name: '--config followed by another option',
    setup: () => ({ args: ['check', '--config', '--help'] }),
    code: 2,
    stream: 'stderr',
    says: /^Falta el valor de --config: escriba --config ARCHIVO/,
  },
  {
    name: 'an option that is not one',
    setup: () => ({ args: ['check', '--configuracion', 'x.json'] }),
    code: 2,
    stream: 'stderr',
    says: /^Opción desconocida: «--configuracion»\. Las opciones de cada comando están en la ayuda de abajo\./,
    never: /Unknown option/,
  },
  {
    name: 'a value given to a switch',
    setup: () => ({ args: ['usuario', 'listar', '--contrasena-stdin=sí'] }),
    code: 2,
    stream: 'stderr',
    says: /^La opción --contrasena-stdin no lleva valor: escriba solo --contrasena-stdin\./,
  },
  {
    name: 'a configuration file that does not exist',
    setup: () => ({ args: ['check', '--config', 'no-existe.json'] }),
    code: 2,
    stream: 'stderr',
    says: /^No se puede leer la configuración: .*no-existe\.json: el archivo de configuración no existe\. Revise la ruta que dio con --config \(o con la variable MANIFIESTO_CONFIG\); para empezar uno, copie config\.example\.json con ese nombre\.\n$/,
    never: /Configuración inválida|ENOENT/,
  },
  {
    name: 'a folder given as the configuration file',
    setup: (dir) => (mkdirSync(join(dir, 'etc')), { args: ['check', '--config', 'etc'] }),
    code: 2,
    stream: 'stderr',
    says: /^No se puede leer la configuración: .*etc: es una carpeta; --config \(o MANIFIESTO_CONFIG\) debe nombrar el archivo, por ejemplo .*etc\/config\.json\.\n$/,
  },
  {
    name: 'a configuration file the user may not read',
    setup: (dir) => {
      if (isRoot) return { skip: 'root lee cualquier archivo' }
      execFileSync('chmod', ['000', config(dir, '{}')])
      return { args: ['check'] }
    },
    code: 2,
    stream: 'stderr',
    says: /^No se puede leer la configuración: .*config\.json: el usuario que ejecuta manifiesto no tiene permiso para leerlo \(EACCES\)\. En Linux: sudo chown root:manifiesto/,
  },
  {
    name: 'a comma after the last key',
    setup: (dir) => (config(dir, '{\n  "server": { "port": 8081 },\n}\n'), { args: ['check'] }),
    code: 2,
    stream: 'stderr',
    says: /^Configuración inválida: .*config\.json: no es JSON válido en la línea 3, columna 1 \(«}»\): sobra la coma antes de «}»: el último valor de un objeto o una lista no lleva coma\. Corríjalo y compruébelo con manifiesto check\.\n$/,
    never: /Unexpected|Expected|position/,
  },
  {
    name: 'a comment in the file',
    setup: (dir) => (
      config(dir, '{\n  // el puerto del proveedor\n  "server": { "port": 8081 }\n}\n'),
      { args: ['check'] }
    ),
    code: 2,
    stream: 'stderr',
    says: /no es JSON válido en la línea 2, columna 3 \(«\/\/ el puerto del proveedor»\): JSON no admite comentarios \(\/\/ … o \/\* … \*\/\): quítelos\./,
  },
  {
    name: 'a file cut short',
    setup: (dir) => (config(dir, '{ "server": { "port": 8081 }'), { args: ['check'] }),
    code: 2,
    stream: 'stderr',
    says: /no es JSON válido al final del archivo: el texto termina antes de cerrar todas las llaves \{ \} y corchetes \[ \] \(¿falta una } al final\?\)\./,
  },
  {
    name: 'a file Notepad saved as «Unicode» (UTF-16)',
    setup: (dir) => (
      config(dir, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('{ "server": { "port": 8081 } }', 'utf16le')])),
      { args: ['check'] }
    ),
    code: 2,
    stream: 'stderr',
    says: /^No se puede leer la configuración: .*config\.json: está guardado en UTF-16 \(el Bloc de notas lo llama «Unicode»\), y manifiesto lee UTF-8\. Ábralo en el Bloc de notas \(o su editor\), Archivo → Guardar como, Codificación: UTF-8, y guárdelo con el mismo nombre\.\n$/,
  },
  {
    name: 'a file saved as ANSI (Windows-1252)',
    setup: (dir) => (config(dir, Buffer.from('{ "warehouses": ["OAC", "PEÑA"] }', 'latin1')), { args: ['check'] }),
    code: 2,
    stream: 'stderr',
    says: /config\.json: no está guardado en UTF-8 \(¿ANSI o Windows-1252\?: una ñ o una tilde lo delatan\)\. Ábralo en el Bloc de notas/,
  },
  {
    name: 'a 3-character apiKey',
    setup: (dir) => (config(dir, JSON.stringify({ auth: { apiKey: 'abc' } })), { args: ['check'] }),
    code: 2,
    stream: 'stderr',
    says: /^Configuración inválida: .*config\.json: «auth\.apiKey» tiene una clave demasiado corta \(3 caracteres\): una clave debe tener al menos 16\. Genere una larga y aleatoria: openssl rand -hex 32 en Linux/,
    never: /abc/,
  },
  {
    name: 'a short operator key in a rotation list',
    setup: (dir) => (
      config(dir, JSON.stringify({ auth: { operatorKey: ['una-clave-larga-de-verdad', 'corta'] } })),
      { args: ['check'] }
    ),
    code: 2,
    stream: 'stderr',
    says: /«auth\.operatorKey» tiene una clave demasiado corta \(5 caracteres\)/,
    never: /corta\b.*corta|una-clave-larga/,
  },
  {
    name: 'a short key from MANIFIESTO_API_KEY',
    setup: () => ({ args: ['check'], env: { MANIFIESTO_API_KEY: 'clave' } }),
    code: 2,
    stream: 'stderr',
    says: /«auth\.apiKey» tiene una clave demasiado corta \(5 caracteres\)/,
  },

  // Item 2: backup's failures name the copy's folder, not the database.
  {
    name: 'backup into a read-only folder',
    setup: (dir) => {
      withDatabase(dir)
      const skip = readOnlyMount(join(dir, 'solo-lectura'))
      return skip === null ? { args: ['backup', 'solo-lectura/copia.db'] } : { skip }
    },
    code: 1,
    stream: 'stderr',
    says: /^No se pudo escribir la copia en .*solo-lectura: el sistema de archivos es de solo lectura \(EROFS\)\. La base de datos no tiene problemas\. Elija una carpeta donde el usuario que ejecuta backup pueda escribir y con espacio \(por ejemplo la de backup\.dir\), o dele permiso a ese usuario en esta\.\n$/,
    never: /database\.path|iniciar/,
    cleanup: (dir) => unmount(join(dir, 'solo-lectura')),
  },
  {
    name: 'backup into a folder that cannot be made (a file is in its way)',
    setup: (dir) => (
      withDatabase(dir),
      writeFileSync(join(dir, 'copias'), 'no es una carpeta'),
      { args: ['backup', 'copias/hoy/copia.db'] }
    ),
    code: 1,
    stream: 'stderr',
    says: /^No se pudo escribir la copia en .*copias\/hoy: (.*copias: )?una parte de la ruta no es una carpeta \(ENOTDIR\)\. La base de datos no tiene problemas\./,
    never: /database\.path/,
  },
  {
    name: 'backup before the database exists',
    setup: () => ({ args: ['backup', 'copia.db'] }),
    code: 1,
    stream: 'stderr',
    says: /^No hay base de datos que copiar: .*data\/manifiesto\.db no existe \(database\.path\)\. Revise que --config sea la configuración del servicio; en una instalación nueva, la base se crea al iniciar el servicio\.\n$/,
  },

  // Item 3: check says when the service could not make or write its folders.
  {
    name: 'check when the data folder cannot be made (a read-only file system above it)',
    setup: (dir) => {
      const skip = readOnlyMount(join(dir, 'var'))
      return skip === null
        ? (config(
            dir,
            JSON.stringify({ database: { path: 'var/lib/manifiesto/data/manifiesto.db' }, backup: { everyHours: 0 } }),
          ),
          { args: ['check'] })
        : { skip }
    },
    code: 1,
    stream: 'stdout',
    says: /\nerror: carpeta de database\.path: el servicio no podrá crear .*var\/lib\/manifiesto\/data: no se puede escribir en .*var \(el sistema de archivos es de solo lectura \(EROFS\)\)\. Créela antes para el usuario del servicio: sudo install -d -o manifiesto -g manifiesto -m 750 .*var\/lib\/manifiesto\/data/,
    cleanup: (dir) => unmount(join(dir, 'var')),
  },
  {
    name: 'check when a file stands where the data folder goes',
    setup: (dir) => (
      writeFileSync(join(dir, 'datos'), ''),
      config(dir, JSON.stringify({ database: { path: 'datos/manifiesto.db' } })),
      { args: ['check'] }
    ),
    code: 1,
    stream: 'stdout',
    says: /\nerror: carpeta de database\.path: .*datos no es una carpeta: corrija database\.path\./,
  },
  {
    name: 'check when backup.copyTo is not mounted',
    setup: (dir) => (config(dir, JSON.stringify({ backup: { copyTo: 'nas/manifiesto' } })), { args: ['check'] }),
    code: 1,
    stream: 'stdout',
    says: /\nerror: carpeta de backup\.copyTo: .*nas\/manifiesto no existe\. Si es un recurso compartido o un disco, móntelo \(y que se monte al reiniciar el servidor\); si no, créelo para el usuario del servicio, o corrija backup\.copyTo\./,
  },
]

for (const row of rows) {
  test(`cli messages: ${row.name} → exit ${row.code}, Spanish, with what to do`, async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'manifiesto-messages-'))
    try {
      const prepared = row.setup(dir)
      if ('skip' in prepared) {
        t.skip(prepared.skip)
        return
      }
      const result = await runCli(prepared.args, {
        cwd: dir,
        ...(prepared.env === undefined ? {} : { env: prepared.env }),
      })
      assert.equal(result.code, row.code, result.stdout + result.stderr)
      assert.match(result[row.stream], row.says)
      if (row.never) assert.doesNotMatch(result.stdout + result.stderr, row.never)
    } finally {
      row.cleanup?.(dir)
      rmSync(dir, { recursive: true, force: true })
    }
  })
}
