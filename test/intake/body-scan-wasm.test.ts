import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { test } from 'node:test'
import { compileBodyScan, moduleSource, WASM_MODULE_FILE } from '../../build/body-scan-wasm.ts'
import { finished, watch } from '../support/processes.ts'

test('body scan: the WebAssembly the service loads is body-scan.wat compiled (run `npm run build:wasm` after editing it)', async () => {
  assert.equal(readFileSync(WASM_MODULE_FILE, 'utf8'), moduleSource(await compileBodyScan()))
})

test('body scan: the module is optimised as it loads, and a module compiled after it is compiled as V8 does by default', async () => {
  // Modules other than the scan, of one small function (i32, i32) → i32 each: an adder, and a
  // subtracter (its export keeps the name "add"). V8's trace tells them by their 7-byte body.
  const adder = [
    0, 97, 115, 109, 1, 0, 0, 0, 1, 7, 1, 96, 2, 127, 127, 1, 127, 3, 2, 1, 0, 7, 7, 1, 3, 97, 100, 100, 0, 0, 10, 9, 1,
    7, 0, 32, 0, 32, 1, 106, 11,
  ]
  const subtracter = [...adder.slice(0, -2), 107, 11]
  // The child loads the scan, then waits for a line on its input (sent once the scan's optimised
  // code exists: V8 makes it on a background thread), compiles both small modules, calls the
  // subtracter once, and leaves time for any optimisation V8 would start for it.
  const script = `
    await import(${JSON.stringify(new URL('../../src/intake/body/body-scan.ts', import.meta.url).href)})
    await new Promise((resolve) => process.stdin.once('data', resolve))
    new WebAssembly.Module(new Uint8Array(${JSON.stringify(adder)}))
    new WebAssembly.Instance(new WebAssembly.Module(new Uint8Array(${JSON.stringify(subtracter)}))).exports.add(1, 2)
    await new Promise((resolve) => setTimeout(resolve, 300))
    process.exit(0)`
  const child = spawn(
    process.execPath,
    ['--trace-wasm-compilation-times', '--import', 'tsx', '--input-type=module', '-e', script],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  )
  let out = ''
  const release = () => {
    if (!child.stdin.writableEnded) child.stdin.end('\n')
  }
  const compilations = (small: boolean) =>
    [...out.matchAll(/using (Liftoff|TurboFan)[^\n]*?bodysize (\d+)/g)]
      .filter((match) => (match[2] === '7') === small)
      .map((match) => match[1])
  const exited = finished(watch(child))
  child.stdout.setEncoding('utf8')
  child.stdout.on('data', (text: string) => {
    out += text
    if (compilations(false).includes('TurboFan')) release()
  })
  // Without the eager compilation the scan is never optimised here: the child is let go anyway.
  const deadline = setTimeout(release, 10_000)
  try {
    await exited
  } finally {
    clearTimeout(deadline)
  }
  // The scan, never called: baseline and optimised code all the same.
  assert.deepEqual([...new Set(compilations(false))].sort(), ['Liftoff', 'TurboFan'], out)
  // The adder, never called, is not compiled (a function is compiled when first called); the
  // subtracter, called once, gets baseline code only (optimised only once hot).
  assert.deepEqual(compilations(true), ['Liftoff'], out)
})
