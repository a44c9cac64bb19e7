/**
 * Smoke test of a built executable, as an administrator would use it, with no node on its PATH:
 *
 *   npm run smoke:linux      the release archive, installed by docs/administracion.md's Linux steps
 *   npm run smoke:windows    build/dist/manifiesto-win-x64.exe under Wine, in a Windows 10 prefix
 *
 * When a step fails it prints what the executable itself printed — the failing command's output
 * and the service's log — since the reason is there, not in this script's stack.
 */
import { linuxSmoke } from './smoke-linux.ts'
import { serviceOutput } from './smoke-support.ts'
import { windowsSmoke } from './smoke-windows.ts'

const platform = process.argv[2] === 'windows' ? 'windows' : 'linux'
const smoke = platform === 'windows' ? windowsSmoke() : linuxSmoke()
try {
  await smoke.run()
  console.log(`\nsmoke ${platform === 'windows' ? 'windows (wine)' : 'linux'}: every step passed`)
} catch (error) {
  smoke.cleanup()
  console.error(`\nFAILED: ${(error as Error).message}`)
  const log = serviceOutput(smoke.launcher)
  if (log !== '') console.error(`\nthe service's output (${smoke.launcher.logs}/servicio.log):\n${log}`)
  console.error(`\nfiles kept in ${smoke.launcher.logs}`)
  process.exitCode = 1
}
