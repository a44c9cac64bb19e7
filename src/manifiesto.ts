/**
 * The program: `manifiesto …` (the single executable's entry, and `npm start`'s). Everything it
 * does is in runCli; this file only hands it the process.
 */
import { runCli, SERVING } from './cli.ts'

// No top-level await: the single executable runs this file as CommonJS.
void runCli(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  stdin: process.stdin,
  cwd: process.cwd(),
}).then((code) => {
  // `serve` goes on running until a signal stops it (src/app/main.ts).
  if (code !== SERVING) process.exitCode = code
})
