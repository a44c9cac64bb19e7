/**
 * `npm run dev`: the service and the console together, for development. The console is rebuilt
 * into console/dist on every change of console/ (the service picks up each build at the next
 * page load); the service restarts when its own source changes (node --watch). Arguments go to
 * `serve` (`npm run dev -- --config config.json`).
 */
import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { watchConsole } from './console.ts'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const watcher = await watchConsole()
const service = spawn(
  process.execPath,
  ['--import', 'tsx', '--watch', '--watch-preserve-output', 'src/manifiesto.ts', 'serve', ...process.argv.slice(2)],
  { cwd: ROOT, stdio: 'inherit' },
)
console.log('consola: se reconstruye al cambiar console/; ábrala en http://<servidor>:<puerto>/consola/')

const stop = async () => {
  service.kill('SIGTERM')
  await watcher.dispose()
}
process.once('SIGINT', () => void stop())
process.once('SIGTERM', () => void stop())
service.once('exit', (code) => {
  void watcher.dispose().then(() => process.exit(code ?? 0))
})
