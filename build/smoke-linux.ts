/**
 * `npm run smoke:linux`: docs/administracion.md's Linux installation, followed from the release
 * archive as far as a machine without systemd allows. The server's folders (/opt/manifiesto,
 * /etc/manifiesto, /var/lib/manifiesto) are made under an empty temporary folder, the service
 * runs as systemd would run it (working folder and HOME /var/lib/manifiesto, the unit's command
 * line) with no node on its PATH. Not done here: the user, systemctl, the firewall.
 */
import { execFileSync, type ChildProcess } from 'node:child_process'
import {
  chmodSync,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import packageJson from '../package.json' with { type: 'json' }
import { freePort } from './free-port.ts'
import {
  API_KEY,
  ROOT,
  checkConsole,
  checkSnapshot,
  runCommand,
  runOk,
  sendBatch,
  startService,
  step,
  stopService,
  waitForPing,
  type Launcher,
  type Smoke,
} from './smoke-support.ts'

const VERSION = packageJson.version
const ARCHIVE = `manifiesto-${VERSION}-linux-x64.tar.gz`
/** What the archive must hold at least (the guides' pictures and examples come with them). */
const CONTENTS = [
  'manifiesto',
  'manifiesto.service',
  'config.example.json',
  'LEAME.md',
  'SHA256SUMS',
  'docs/administracion.md',
  'docs/operacion-consola.md',
  'docs/img/consola-estado.png',
]

export function linuxSmoke(): Smoke {
  const dir = mkdtempSync(join(tmpdir(), 'manifiesto-smoke-'))
  const download = join(dir, 'descarga')
  const server = join(dir, 'servidor')
  const opt = join(server, 'opt/manifiesto')
  const etc = join(server, 'etc/manifiesto')
  const state = join(server, 'var/lib/manifiesto')
  const logs = join(server, 'var/log/manifiesto')
  const config = join(etc, 'config.json')
  // The unit's WorkingDirectory and Environment=HOME; a PATH with no node on it.
  const launcher: Launcher = {
    command: [join(opt, 'manifiesto')],
    cwd: state,
    env: { PATH: join(dir, 'sin-node'), HOME: state },
    logs: dir,
  }
  let service: ChildProcess | undefined

  const run = async () => {
    if (
      execFileSync('/bin/sh', ['-c', 'command -v node || true'], { env: launcher.env, encoding: 'utf8' }).trim() !== ''
    )
      throw new Error('node is on the PATH')

    // «Verificar la descarga»: the archive and SHA256SUMS, downloaded into an empty folder.
    mkdirSync(download)
    for (const file of [ARCHIVE, 'SHA256SUMS']) copyFileSync(join(ROOT, 'build/dist', file), join(download, file))
    const sums = execFileSync('sha256sum', ['-c', '--ignore-missing', 'SHA256SUMS'], {
      cwd: download,
      encoding: 'utf8',
      env: { ...process.env, LC_ALL: 'C' },
    })
    if (!sums.includes(`${ARCHIVE}: OK`)) throw new Error(`sha256sum -c: ${sums}`)
    step('sha256sum -c --ignore-missing SHA256SUMS', sums.trim().split('\n').join('; '))

    // Step 1: extract.
    execFileSync('tar', ['-xzf', ARCHIVE], { cwd: download })
    const extracted = join(download, `manifiesto-${VERSION}`)
    const found = listFiles(extracted)
    const missing = CONTENTS.filter((file) => !found.includes(file))
    if (missing.length > 0 || found.includes('README.md'))
      throw new Error(`the archive holds ${found.join(', ')}; it lacks ${missing.join(', ') || 'nothing'}`)
    if ((statSync(join(extracted, 'manifiesto')).mode & 0o777) !== 0o755)
      throw new Error('manifiesto is not 755 in the archive')
    step(
      `tar -xzf ${ARCHIVE}`,
      `manifiesto-${VERSION}/: ${found.length} files (${found.filter((file) => !file.startsWith('docs/')).join(', ')}, docs/…)`,
    )
    const inner = execFileSync('sha256sum', ['-c', 'SHA256SUMS'], {
      cwd: extracted,
      encoding: 'utf8',
      env: { ...process.env, LC_ALL: 'C' },
    })
    step('sha256sum -c SHA256SUMS inside the folder', `${inner.trim().split('\n').length} files OK`)

    // Step 2: the program, the léame and the guides; the state folder, the service's own.
    install(join(extracted, 'manifiesto'), join(opt, 'manifiesto'), 0o755)
    install(join(extracted, 'LEAME.md'), join(opt, 'LEAME.md'), 0o644)
    for (const file of found.filter((name) => name.startsWith('docs/')))
      install(join(extracted, file), join(opt, file), 0o644)

    // Step 3: config.example.json copied to /etc/manifiesto/config.json (640), then its keys edited
    // as the guide says — plus, for this machine only, loopback and a free port.
    install(join(extracted, 'config.example.json'), config, 0o640)
    const port = await freePort()
    const settings = JSON.parse(readFileSync(config, 'utf8')) as Record<string, Record<string, unknown>>
    settings.database!.path = join(state, 'data/manifiesto.db')
    settings.auth!.apiKey = API_KEY
    settings.auth!.operatorKey = 'clave-de-operadores-de-humo'
    settings.backup!.dir = join(state, 'backups')
    settings.log!.file = join(logs, 'manifiesto.log')
    settings.server!.host = '127.0.0.1'
    settings.server!.port = port
    writeFileSync(config, `${JSON.stringify(settings, null, 2)}\n`)
    step(
      'config.json from config.example.json',
      'database.path, backup.dir, log.file, auth.apiKey, auth.operatorKey (and server.host, server.port)',
    )
    // Step 2's `install -d … /var/lib/manifiesto`: check (step 4) and restaurar run before systemd would make it.
    mkdirSync(state, { recursive: true, mode: 0o750 })

    // Step 4: check before the first start: valid, the database will be created, exit 0.
    const fresh = runCommand(launcher, ['check', '--config', config])
    if (fresh.code !== 0 || !/el servicio la creará/.test(fresh.output))
      throw new Error(`check on a fresh install: exit code ${fresh.code}; it printed:\n${fresh.output}`)
    step('check on a fresh install', `exit 0 — ${lastLine(fresh.output)}`)

    step('version', runOk(launcher, ['version']).trim())
    step('--version', runOk(launcher, ['--version']).trim())

    // Step 5: the service, with the unit's command line.
    const started = performance.now()
    service = startService(launcher, ['--config', config])
    const url = `http://127.0.0.1:${port}`
    await waitForPing(url, service)
    step('serve: first ping answered', `${Math.round(performance.now() - started)} ms after start`)
    step('a batch inserted', await sendBatch(url))
    step('the operator console', await checkConsole(url))

    // «Monitoreo»: the status endpoint with the OperatorKey, and the day's log file.
    const status = await fetch(`${url}/api/v1/operador/estado`, {
      headers: { OperatorKey: 'clave-de-operadores-de-humo' },
    })
    const estado = (await status.json()) as {
      lotes?: { hoy?: number }
      copias?: { ultima?: { resultado?: string } | null }
    }
    if (status.status !== 200 || estado.lotes?.hoy !== 1)
      throw new Error(`estado: ${status.status} ${JSON.stringify(estado)}`)
    step(
      'GET /api/v1/operador/estado',
      `200, lotes.hoy 1, última copia ${estado.copias?.ultima?.resultado ?? 'ninguna'}`,
    )
    const logged = readFileSync(join(logs, 'manifiesto.log'), 'utf8')
    if (!/"msg":"manifiesto escuchando"/.test(logged) || !/"request_id":"[0-9a-f]{16}"/.test(logged))
      throw new Error(`log.file holds:\n${logged.slice(0, 2000)}`)
    // «Cuentas personales»: an account from the command line while the service runs (same file).
    runOk(
      launcher,
      [
        'usuario',
        'crear',
        'ana.lopez',
        '--rol',
        'operador',
        '--almacenes',
        'OAC,OAS',
        '--contrasena-stdin',
        '--config',
        config,
      ],
      'una-clave-de-humo-2026\n',
    )
    const accounts = runOk(launcher, ['usuario', 'listar', '--config', config])
    if (!accounts.includes('ana.lopez')) throw new Error(`usuario listar:\n${accounts}`)
    step('usuario crear … --contrasena-stdin, usuario listar', lastLine(accounts))
    step('log.file written', `${logged.split('\n').filter(Boolean).length} lines in /var/log/manifiesto/manifiesto.log`)

    // «Copias de seguridad»: on demand, while serving, into backup.dir; and the automatic one.
    const manual = join(state, 'backups/manual.db')
    step('backup while serving', runOk(launcher, ['backup', '--config', config, manual]).trim())
    step('sqlite3 opens the snapshot', checkSnapshot(manual))
    const automatic = readdirSync(join(state, 'backups')).filter((name) => /^manifiesto-.*\.db$/.test(name))
    if (automatic.length !== 1) throw new Error(`automatic snapshots in backup.dir: ${automatic.join(', ') || 'none'}`)
    step('automatic snapshot at start, in backup.dir', automatic[0]!)

    step('check', lastLine(runOk(launcher, ['check', '--config', config])))
    step('check of the snapshot', lastLine(runOk(launcher, ['check', '--config', config, manual])))

    await stopService(service)
    step('SIGTERM: clean stop', 'exit code 0')
    const data = relative(server, join(state, 'data'))
    step('the database where config.json put it', `/${data}: ${readdirSync(join(state, 'data')).join(', ')}`)

    // «Restaurar una copia», on a new server: no data folder yet; restaurar makes it and puts the copy in.
    rmSync(join(state, 'data'), { recursive: true })
    const restored = runOk(launcher, ['restaurar', manual, '--config', config])
    if (!/^restaurada: /m.test(restored) || !/^Ahora inicie el servicio: /m.test(restored))
      throw new Error(`restaurar printed:\n${restored}`)
    step(
      'restaurar the manual backup on a new server',
      restored.split('\n').find((line) => line.startsWith('restaurada: '))!,
    )
    step('check after restaurar', lastLine(runOk(launcher, ['check', '--config', config])))
    service = startService(launcher, ['--config', config])
    await waitForPing(url, service)
    const invoices = await fetch(`${url}/api/v1/operador/manifiestos`, {
      headers: { OperatorKey: 'clave-de-operadores-de-humo' },
    })
    if (invoices.status !== 200 || !(await invoices.text()).includes('"total_facturas":2'))
      throw new Error(`after restaurar, manifiestos answered ${invoices.status}`)
    step('serve on the restored database', 'the batch sent before the backup is there')
    await stopService(service)
  }
  return { launcher, run, cleanup: () => service?.kill('SIGKILL') }

  function install(from: string, to: string, mode: number): void {
    mkdirSync(join(to, '..'), { recursive: true })
    copyFileSync(from, to)
    chmodSync(to, mode)
  }
}

function listFiles(dir: string, prefix = ''): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) =>
      entry.isDirectory() ? listFiles(join(dir, entry.name), `${prefix}${entry.name}/`) : [`${prefix}${entry.name}`],
    )
    .sort()
}

function lastLine(output: string): string {
  return output.trim().split('\n').pop() ?? ''
}
