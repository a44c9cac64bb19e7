import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { test } from 'node:test'
import { compileBodyScan, moduleSource, WASM_MODULE_FILE } from '../../build/body-scan-wasm.ts'

test('body scan: the WebAssembly the service loads is body-scan.wat compiled (run `npm run build:wasm` after editing it)', async () => {
  assert.equal(readFileSync(WASM_MODULE_FILE, 'utf8'), moduleSource(await compileBodyScan()))
})

test('body scan: the module is optimised as it loads, and a module compiled after it is compiled as V8 does by default', () => {
  // Modules other than the scan: a function (i32, i32) → i32 adding its arguments, and one subtracting them.
  const adder = [0, 97, 115, 109, 1, 0, 0, 0, 1, 7, 1, 96, 2, 127, 127, 1, 127, 3, 2, 1, 0, 7, 7, 1, 3, 97, 100, 100, 0, 0, 10, 9, 1, 7, 0, 32, 0, 32, 1, 106, 11]
  const subtracter = [...adder.slice(0, -2), 107, 11]
  // V8 prints each compilation (optimised ones from a background thread); the pauses let those end.
  const script = `
    await import(${JSON.stringify(new URL('../../src/intake/body-layout.ts', import.meta.url).href)})
    await new Promise((resolve) => setTimeout(resolve, 100))
    new WebAssembly.Module(new Uint8Array(${JSON.stringify(adder)}))
    new WebAssembly.Instance(new WebAssembly.Module(new Uint8Array(${JSON.stringify(subtracter)}))).exports.add(1, 2)
    await new Promise((resolve) => setTimeout(resolve, 100))`
  const out = execFileSync(process.execPath, ['--trace-wasm-compilation-times', '--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8' })
  // Each module's compilations, by the module's address, in the order the modules were compiled.
  const compilations = new Map<string, string[]>()
  for (const [, module, tier] of out.matchAll(/(0x[0-9a-f]+)#\d+ using (Liftoff|TurboFan)/g)) compilations.set(module!, [...(compilations.get(module!) ?? []), tier!])
  const [scan, other] = [...compilations.values()]
  // The scan, never called here: baseline and optimised code all the same.
  assert.deepEqual(scan?.sort(), ['Liftoff', 'TurboFan'], out)
  // The adder, never called: not compiled (a function is compiled when first called). The
  // subtracter, called once: baseline code only (optimised only once hot).
  assert.deepEqual(other, ['Liftoff'], out)
  assert.equal(compilations.size, 2, out)
})
