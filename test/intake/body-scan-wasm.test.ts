import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { test } from 'node:test'
import { compileBodyScan, moduleSource, WASM_MODULE_FILE } from '../../build/body-scan-wasm.ts'

test('body scan: the WebAssembly the service loads is body-scan.wat compiled (run `npm run build:wasm` after editing it)', async () => {
  assert.equal(readFileSync(WASM_MODULE_FILE, 'utf8'), moduleSource(await compileBodyScan()))
})
