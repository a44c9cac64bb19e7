/**
 * `npm run smoke:windows`: build/dist/manifiesto-win-x64.exe under Wine (Debian's `wine`), copied
 * alone into an empty folder as manifiesto.exe: version, serve, ping, a batch, backup (checked with
 * the sqlite3 tool), check, stop, restaurar on a new server, check.
 *
 * Wine runs in a prefix of its own, made for this run and set to Windows 10: a new Debian Wine
 * prefix says Windows 7, and Node 22 refuses to start on less than Windows 8.1.
 */
import { execFileSync, spawnSync, type ChildProcess } from 'node:child_process'
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freePort } from './free-port.ts'
import {
  API_KEY,
  checkConsole,
  checkSnapshot,
  type Launcher,
  ROOT,
  runOk,
  sendBatch,
  type Smoke,
  startService,
  step,
  waitForPing,
} from './smoke-support.ts'

const VERSION_KEY = 'HKLM\\Software\\Microsoft\\Windows NT\\CurrentVersion'

export function windowsSmoke(): Smoke {
  const dir = mkdtempSync(join(tmpdir(), 'manifiesto-smoke-windows-'))
  const prefix = join(dir, 'wine')
  const exe = join(dir, 'manifiesto.exe')
  // No node on this PATH (only the system's tools, Wine among them). mscoree and mshtml disabled:
  // a new prefix otherwise offers to download Wine Mono and Gecko, which nothing here needs.
  const env: NodeJS.ProcessEnv = {
    PATH: '/usr/bin:/bin',
    HOME: dir,
    WINEPREFIX: prefix,
    WINEDEBUG: '-all',
    WINEDLLOVERRIDES: 'mscoree,mshtml=',
  }
  const launcher: Launcher = { command: ['wine', exe], cwd: dir, env, logs: dir }
  let service: ChildProcess | undefined

  const run = async () => {
    if (spawnSync('wine', ['--version'], { env, stdio: 'ignore' }).error)
      throw new Error('wine is not installed (Debian: apt-get install wine)')
    // winecfg -v creates the prefix (wineboot) and sets the version, without a window.
    execFileSync('winecfg', ['-v', 'win10'], { env, stdio: 'ignore' })
    const version = registryValue('CurrentVersion')
    if (version !== '10.0') throw new Error(`the Wine prefix says Windows ${version}, not 10.0`)
    step(
      'own Wine prefix set to Windows 10',
      `${prefix}: CurrentVersion ${version}, build ${registryValue('CurrentBuild')}`,
    )

    copyFileSync(join(ROOT, 'build/dist/manifiesto-win-x64.exe'), exe)
    const port = await freePort()
    writeFileSync(
      join(dir, 'config.json'),
      JSON.stringify({ server: { host: '127.0.0.1', port }, auth: { apiKey: API_KEY }, backup: { everyHours: 0 } }),
    )
    step('version', runOk(launcher, ['version']).trim())

    const started = performance.now()
    service = startService(launcher, [])
    const url = `http://127.0.0.1:${port}`
    await waitForPing(url, service)
    step('serve: first ping answered', `${Math.round(performance.now() - started)} ms after start`)
    step('a batch inserted', await sendBatch(url))
    step('the operator console', await checkConsole(url))
    step('backup while serving', runOk(launcher, ['backup', 'copia.db']).trim())
    step('sqlite3 opens the snapshot', checkSnapshot(join(dir, 'copia.db')))
    step('check', runOk(launcher, ['check']).trim().split('\n').pop()!)

    stopWine()
    step('stopped (Wine: the Windows service stop is WinSW sending Ctrl+C; not reproduced here)')

    // «Restaurar una copia» on a new server: no data folder; restaurar makes it and puts the copy in.
    rmSync(join(dir, 'data'), { recursive: true, force: true })
    const restored = runOk(launcher, ['restaurar', 'copia.db'])
    if (!/^restaurada: /m.test(restored) || !/Start-Service manifiesto/.test(restored))
      throw new Error(`restaurar printed:\n${restored}`)
    step(
      'restaurar the backup on a new server',
      restored.split(/\r?\n/).find((line) => line.startsWith('restaurada: '))!,
    )
    step('check after restaurar', runOk(launcher, ['check']).trim().split('\n').pop()!)
    stopWine()
    // The prefix is some hundred megabytes; after a failure it stays, with the logs, to look into.
    rmSync(prefix, { recursive: true, force: true })
  }

  function registryValue(name: string): string {
    const output = execFileSync('wine', ['reg', 'query', VERSION_KEY, '/v', name], { env, encoding: 'utf8' })
    return new RegExp(`${name}\\s+REG_\\w+\\s+(\\S+)`).exec(output)?.[1] ?? `(no ${name} in the registry)`
  }

  function stopWine(): void {
    service?.kill('SIGKILL')
    spawnSync('wineserver', ['-k'], { env, stdio: 'ignore' })
  }

  return { launcher, run, cleanup: stopWine }
}
