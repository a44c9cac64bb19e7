import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, test } from 'node:test'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { databaseState } from '../support/batches.ts'
import { API_KEY, startTestService, type TestService } from '../support/service.ts'

/**
 * The integrators' guide runs (issue 17): every `curl` of docs/integracion.md sits in a block
 * marked "```sh ejemplo-curl STATUS"; each runs, in the guide's order, against one real service
 * (the guide's $MANIFIESTO and $API_KEY set to it, in a copy of docs/ejemplos/ where lote.json is,
 * so what an example writes there — `gzip -k` makes lote.json.gz — stays out of the repository),
 * and must get the status the guide promises. The clock is 2026-11-22, within 30 days of the
 * sample's dates.
 */
const GUIDE = readFileSync(fileURLToPath(new URL('../../docs/integracion.md', import.meta.url)), 'utf8')
const EXAMPLES_DIR = fileURLToPath(new URL('../../docs/ejemplos/', import.meta.url))
const run = promisify(execFile)

interface CurlExample {
  status: number
  command: string
  line: number
}

function curlExamples(markdown: string): CurlExample[] {
  return [...markdown.matchAll(/^```sh ejemplo-curl (\d{3})\n([\s\S]*?)^```$/gm)].map((match) => ({
    status: Number(match[1]),
    command: match[2]!.trim(),
    line: markdown.slice(0, match.index).split('\n').length,
  }))
}

const examples = curlExamples(GUIDE)
let service: TestService
let scratch: string
let examplesDir: string

before(async () => {
  service = await startTestService()
  scratch = mkdtempSync(join(tmpdir(), 'manifiesto-guia-'))
  examplesDir = join(scratch, 'ejemplos')
  cpSync(EXAMPLES_DIR, examplesDir, { recursive: true })
})
after(async () => {
  await service.close()
  rmSync(scratch, { recursive: true, force: true })
})

test('guide: every curl of docs/integracion.md is in a marked example (none escapes this test)', () => {
  const blocks = [...GUIDE.matchAll(/^```([^\n]*)\n([\s\S]*?)^```$/gm)]
  const unmarked = blocks.filter((block) => /\bcurl\b/.test(block[2]!) && !/^sh ejemplo-curl \d{3}$/.test(block[1]!))
  assert.deepEqual(
    unmarked.map((block) => block[2]),
    [],
  )
  assert.ok(examples.length >= 10, `only ${examples.length} examples found`)
  for (const needed of [
    '/facturas/validar',
    '/facturas/insertar',
    '/manifiestos/905112/estado',
    '/devoluciones/listar',
  ]) {
    assert.ok(
      examples.some((example) => example.command.includes(needed) && example.status === 200),
      `no example of ${needed}`,
    )
  }
})

test('guide: every link of its table of contents and text leads to one of its headings', () => {
  // GitHub's anchors: the heading in lower case, without punctuation, spaces as hyphens.
  const slug = (heading: string) =>
    heading
      .toLowerCase()
      .replace(/[^\p{L}\p{N} -]/gu, '')
      .replaceAll(' ', '-')
  const anchors = new Set([...GUIDE.matchAll(/^#{2,3} (.+)$/gm)].map((match) => slug(match[1]!)))
  const links = [...GUIDE.matchAll(/\]\(#([^)]+)\)/g)].map((match) => match[1]!)
  assert.ok(links.length > 15)
  assert.deepEqual(
    links.filter((link) => !anchors.has(link)),
    [],
  )
})

examples.forEach((example, index) => {
  test(`guide example ${index + 1} (line ${example.line}) → ${example.status}: ${example.command.split('\n')[0]}`, async () => {
    const bodyFile = join(scratch, `respuesta-${index + 1}.json`)
    // The guide's curl, exactly, with only where the answer goes, the status printed and a time limit added.
    const script = `curl() { command curl --max-time 60 -o "$RESPUESTA" -w '%{http_code}' "$@"; }\n${example.command}`
    const { stdout } = await run('bash', ['-c', script], {
      cwd: examplesDir,
      env: { ...process.env, MANIFIESTO: service.url, API_KEY, RESPUESTA: bodyFile },
      timeout: 90_000,
      killSignal: 'SIGKILL',
    })
    const body = readFileSync(bodyFile, 'utf8')
    assert.equal(Number(stdout.trim()), example.status, body.slice(0, 500))
    if (!example.command.endsWith('/api/v1/docs"')) assert.doesNotThrow(() => JSON.parse(body), 'a JSON answer')
  })
})

test('guide: after the walk-through, one batch of two invoices is stored (validar and the resend stored nothing)', () => {
  const state = databaseState(service.db)
  assert.equal(state.batches, 1)
  assert.equal(state.invoices, 2)
})
