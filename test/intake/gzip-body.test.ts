import assert from 'node:assert/strict'
import { request } from 'node:http'
import { test } from 'node:test'
import { gzipSync } from 'node:zlib'
import {
  databaseDump,
  databaseState,
  exampleBatch,
  invoicesOf,
  storedPayload,
  type Answer,
} from '../support/batches.ts'
import { operator } from '../support/operator.ts'
import { API_KEY, OPERATOR_KEY, withService, type ConfigOverrides, type TestService } from '../support/service.ts'

/**
 * Issue 15: batches may arrive gzip-compressed (`Content-Encoding: gzip`; the supplier's 56 MB
 * batch crosses the VPN as ~6 MB). The body is inflated as it arrives; server.maxBodyMB limits the
 * inflated size (a small bomb is a 413 and is not inflated further); a stream that cannot be
 * inflated is a 422; any other coding is a 415; what is stored is the inflated JSON.
 */
const LIMITS = { rateLimits: { insertPerMinute: 1000, validatePerMinute: 1000 } }

/** The example batch as a client could send it: indented, so its bytes are not the canonical ones. */
const JSON_BYTES = Buffer.from(JSON.stringify(exampleBatch(), null, 2), 'utf8')
const GZIPPED = gzipSync(JSON_BYTES)

/** Refused: the answer, exactly, and the database as it was. */
interface Refusal {
  name: string
  endpoint?: 'insertar' | 'validar'
  config?: ConfigOverrides
  encoding?: string
  withoutKey?: boolean
  chunked?: boolean
  body: () => Buffer
  status: number
  message: string
  headers?: Record<string, string>
}

const TOO_LARGE_128 = 'El cuerpo de la solicitud excede el máximo permitido de 128 MB.'
const TOO_LARGE_1 = 'El cuerpo de la solicitud excede el máximo permitido de 1 MB.'
const unsupported = (value: string) =>
  `El cuerpo llegó con Content-Encoding: ${value}, que el servicio no acepta. Envíe el lote sin comprimir (sin Content-Encoding) o comprimido una sola vez con gzip (Content-Encoding: gzip); br, deflate y compress no se aceptan.`
const UNREADABLE = (what: string) =>
  `El cuerpo de la solicitud no se pudo descomprimir: llegó con Content-Encoding: gzip, pero ${what}. Comprima el lote completo con gzip y reenvíelo, o envíelo sin comprimir y sin Content-Encoding.`
const TRUNCATED = UNREADABLE(
  'los datos comprimidos terminan antes de tiempo (el archivo .gz está incompleto o el envío se cortó)',
)
const DAMAGED = UNREADABLE('los datos no son gzip válido o están dañados')

/**
 * About 1 MB that inflates to 1 GB: 64 gzip members of 16 MB of zeros each (a gzip body may hold
 * several members, RFC 1952 §2.2, and the service inflates them all), built in milliseconds.
 */
function bomb(): Buffer {
  const member = gzipSync(Buffer.alloc(16 * 1024 * 1024), { level: 9 })
  return Buffer.concat(Array<Buffer>(64).fill(member))
}

/** The example batch padded with spaces to exactly `bytes` (valid JSON of that size). */
function paddedTo(bytes: number): Buffer {
  return Buffer.concat([JSON_BYTES, Buffer.alloc(bytes - JSON_BYTES.length, ' ')])
}

/** The gzip stream with one byte of its CRC-32 trailer changed: it inflates fully, then fails its check. */
function badChecksum(): Buffer {
  const copy = Buffer.from(GZIPPED)
  copy[copy.length - 8]! ^= 0xff
  return copy
}

const refusals: Refusal[] = [
  {
    name: 'br without ApiKey → 415 (the coding is judged with the size, before the key)',
    encoding: 'br',
    withoutKey: true,
    body: () => GZIPPED,
    status: 415,
    message: unsupported('br'),
    headers: { 'accept-encoding': 'gzip', connection: 'close' },
  },
  {
    name: 'br → 415 naming what is accepted',
    encoding: 'br',
    body: () => GZIPPED,
    status: 415,
    message: unsupported('br'),
    headers: { 'accept-encoding': 'gzip' },
  },
  { name: 'deflate → 415', encoding: 'deflate', body: () => GZIPPED, status: 415, message: unsupported('deflate') },
  { name: 'compress → 415', encoding: 'compress', body: () => GZIPPED, status: 415, message: unsupported('compress') },
  { name: 'an unknown coding → 415', encoding: 'zstd', body: () => GZIPPED, status: 415, message: unsupported('zstd') },
  {
    name: 'two codings (gzip twice) → 415',
    encoding: 'gzip, gzip',
    body: () => gzipSync(GZIPPED),
    status: 415,
    message: unsupported('gzip, gzip'),
  },
  {
    name: 'br on validar → 415',
    endpoint: 'validar',
    encoding: 'br',
    body: () => GZIPPED,
    status: 415,
    message: unsupported('br'),
  },
  {
    name: 'gzip declared, plain JSON sent → 422',
    encoding: 'gzip',
    body: () => JSON_BYTES,
    status: 422,
    message: DAMAGED,
  },
  {
    name: 'truncated gzip (half the stream) → 422',
    encoding: 'gzip',
    body: () => GZIPPED.subarray(0, GZIPPED.length >> 1),
    status: 422,
    message: TRUNCATED,
  },
  {
    name: 'truncated gzip on validar → 422',
    endpoint: 'validar',
    encoding: 'gzip',
    body: () => GZIPPED.subarray(0, GZIPPED.length - 4),
    status: 422,
    message: TRUNCATED,
  },
  {
    name: 'gzip whose checksum does not match → 422',
    encoding: 'gzip',
    body: badChecksum,
    status: 422,
    message: DAMAGED,
  },
  {
    name: 'gzip declared, empty body → 422',
    encoding: 'gzip',
    body: () => Buffer.alloc(0),
    status: 422,
    message: TRUNCATED,
  },
  {
    name: 'a 1 MB bomb inflating to 1 GB → 413 at the default 128 MB',
    encoding: 'gzip',
    body: bomb,
    status: 413,
    message: TOO_LARGE_128,
    headers: { connection: 'close' },
  },
  {
    name: 'a 1 MB bomb sent chunked → 413',
    encoding: 'gzip',
    chunked: true,
    body: bomb,
    status: 413,
    message: TOO_LARGE_128,
  },
  {
    name: 'a bomb on validar → 413',
    endpoint: 'validar',
    encoding: 'gzip',
    body: bomb,
    status: 413,
    message: TOO_LARGE_128,
  },
  {
    name: 'one gzip stream inflating to 64 MB over maxBodyMB 1 → 413',
    config: { server: { maxBodyMB: 1 } },
    encoding: 'gzip',
    body: () => gzipSync(Buffer.alloc(64 * 1024 * 1024)),
    status: 413,
    message: TOO_LARGE_1,
  },
  {
    name: 'inflating to one byte over maxBodyMB → 413',
    config: { server: { maxBodyMB: 1 } },
    encoding: 'gzip',
    body: () => gzipSync(paddedTo(1024 * 1024 + 1)),
    status: 413,
    message: TOO_LARGE_1,
  },
]

for (const row of refusals) {
  test(`gzip body: ${row.name}; nothing stored`, { timeout: 30_000 }, () =>
    withService({ config: { ...LIMITS, ...row.config } }, async (service) => {
      const before = databaseDump(service.db)
      const answer = await send(service, row.endpoint ?? 'insertar', row.body(), {
        encoding: row.encoding,
        withoutKey: row.withoutKey,
        chunked: row.chunked,
      })
      assert.deepEqual(
        { status: answer.status, body: answer.body },
        { status: row.status, body: { success: false, message: row.message } },
      )
      for (const [name, value] of Object.entries(row.headers ?? {})) assert.equal(answer.headers.get(name), value, name)
      assert.deepEqual(databaseDump(service.db), before)
      // The service is whole afterwards: the same batch, plain, is taken at once.
      assert.equal((await send(service, 'insertar', JSON_BYTES, {})).status, 200)
    }),
  )
}

/** Taken: the same answer as the plain batch gets from a fresh service, and the same rows. */
interface Acceptance {
  name: string
  endpoint?: 'insertar' | 'validar'
  config?: ConfigOverrides
  encoding: string
  chunked?: boolean
  body: () => Buffer
  /** What the service took in, once inflated (the stored payload). */
  json?: Buffer
}

const acceptances: Acceptance[] = [
  { name: 'gzip', encoding: 'gzip', body: () => GZIPPED },
  { name: 'GZIP in upper case', encoding: 'GZIP', body: () => GZIPPED },
  { name: 'x-gzip', encoding: 'x-gzip', body: () => GZIPPED },
  { name: 'identity, gzip (identity is no coding)', encoding: 'identity, gzip', body: () => GZIPPED },
  { name: 'identity: the body as it is', encoding: 'identity', body: () => JSON_BYTES },
  { name: 'gzip sent chunked (no Content-Length)', encoding: 'gzip', chunked: true, body: () => GZIPPED },
  {
    name: 'gzip in two members (RFC 1952 §2.2)',
    encoding: 'gzip',
    body: () => Buffer.concat([gzipSync(JSON_BYTES.subarray(0, 1000)), gzipSync(JSON_BYTES.subarray(1000))]),
  },
  {
    name: 'inflating to exactly maxBodyMB',
    config: { server: { maxBodyMB: 1 } },
    encoding: 'gzip',
    body: () => gzipSync(paddedTo(1024 * 1024)),
    json: paddedTo(1024 * 1024),
  },
  { name: 'gzip', endpoint: 'validar', encoding: 'gzip', body: () => GZIPPED },
  { name: 'GZIP in upper case', endpoint: 'validar', encoding: 'GZIP', body: () => GZIPPED },
]

for (const row of acceptances) {
  const endpoint = row.endpoint ?? 'insertar'
  const json = row.json ?? JSON_BYTES
  test(`gzip body: ${row.name} on ${endpoint} → the plain batch's answer and rows`, () =>
    withService({ config: { ...LIMITS, ...row.config } }, async (plainService) => {
      const plain = await send(plainService, endpoint, json, {})
      assert.equal(plain.status, 200, JSON.stringify(plain.body))
      await withService({ config: { ...LIMITS, ...row.config } }, async (service) => {
        const compressed = await send(service, endpoint, row.body(), { encoding: row.encoding, chunked: row.chunked })
        const uuid = compressed.body.batch_uuid as string | null
        assert.deepEqual(
          { status: compressed.status, body: { ...compressed.body, batch_uuid: typeof uuid } },
          { status: 200, body: { ...plain.body, batch_uuid: typeof plain.body.batch_uuid } },
        )
        assert.deepEqual(databaseState(service.db), databaseState(plainService.db))
        assert.deepEqual(invoicesOf(service.db, '905112'), invoicesOf(plainService.db, '905112'))
        if (endpoint === 'insertar') {
          assert.equal(databaseState(service.db).invoices, 2)
          assert.ok(storedPayload(service.db, uuid!)!.equals(json), 'the stored body is the inflated JSON')
        } else {
          assert.equal(databaseState(service.db).batches, 0, 'validar stores nothing')
        }
      })
    }))
}

test('gzip body: the payload download is the inflated JSON byte for byte; the batch record counts its inflated size; the plain resend is its duplicate', () =>
  withService({ config: LIMITS }, async (service) => {
    const taken = await send(service, 'insertar', GZIPPED, { encoding: 'gzip' })
    assert.equal(taken.status, 200)
    const uuid = taken.body.batch_uuid as string
    const download = await service.fetch(`/api/v1/operador/lotes/${uuid}/payload`, {
      headers: { OperatorKey: OPERATOR_KEY },
    })
    assert.equal(download.status, 200)
    assert.equal(download.headers.get('content-encoding'), null)
    assert.ok(Buffer.from(await download.arrayBuffer()).equals(JSON_BYTES))
    const record = (await operator(service, 'GET', `lotes/${uuid}`)).body
    assert.equal(record.cuerpo.bytes, JSON_BYTES.length)
    const resent = await send(service, 'insertar', JSON_BYTES, {})
    assert.deepEqual([resent.status, resent.body.batch_uuid, resent.body.resumen], [200, uuid, taken.body.resumen])
    assert.equal(databaseState(service.db).batches, 1)
  }))

test('gzip body: a gzip body that does not arrive within server.bodyTimeoutSeconds → 408, connection closed, nothing stored', () =>
  withService({ config: { server: { bodyTimeoutSeconds: 1 } } }, async (service) => {
    const before = databaseDump(service.db)
    // Half the compressed batch, and then nothing: the rest never comes.
    const answer = await new Promise<{ status: number; connection: string | undefined; body: string }>(
      (resolve, reject) => {
        const sending = request(
          `${service.url}/api/v1/facturas/insertar`,
          {
            method: 'POST',
            headers: {
              ApiKey: API_KEY,
              'Content-Type': 'application/json',
              'Content-Encoding': 'gzip',
              'Content-Length': String(GZIPPED.length),
            },
          },
          (response) => {
            let body = ''
            response.setEncoding('utf8')
            response.on('data', (chunk: string) => (body += chunk))
            response.on('end', () => {
              sending.destroy()
              resolve({ status: response.statusCode ?? 0, connection: response.headers.connection, body })
            })
          },
        )
        sending.on('error', reject)
        sending.write(GZIPPED.subarray(0, GZIPPED.length >> 1))
      },
    )
    assert.deepEqual(
      { ...answer, body: JSON.parse(answer.body) as unknown },
      {
        status: 408,
        connection: 'close',
        body: {
          success: false,
          message: 'El cuerpo de la solicitud no terminó de llegar en 1 segundos; revise la conexión y reenvíe.',
        },
      },
    )
    assert.deepEqual(databaseDump(service.db), before)
  }))

/** The warehouse's routes take plain JSON only (their bodies are at most 1 MB). */
const operatorRefusals = [
  { name: 'gzip', encoding: 'gzip' },
  { name: 'x-gzip', encoding: 'x-gzip' },
  { name: 'br', encoding: 'br' },
]

for (const row of operatorRefusals) {
  test(`gzip body: an operator body in ${row.name} → 415 naming plain JSON, nothing changed`, () =>
    withService({}, async (service) => {
      const before = databaseDump(service.db)
      const response = await service.fetch('/api/v1/operador/conceptos', {
        method: 'POST',
        headers: {
          OperatorKey: OPERATOR_KEY,
          Operador: 'Ana',
          'Content-Type': 'application/json',
          'Content-Encoding': row.encoding,
        },
        body: gzipSync(JSON.stringify({ codigo: 'DANADO', descripcion: 'Producto dañado' })),
      })
      assert.equal(response.status, 415)
      assert.equal(response.headers.get('accept-encoding'), 'identity')
      assert.deepEqual(await response.json(), {
        success: false,
        message: `El cuerpo llegó con Content-Encoding: ${row.encoding}, que esta ruta no acepta: envíe el cuerpo JSON sin comprimir y sin Content-Encoding (solo los lotes de facturas pueden enviarse comprimidos con gzip).`,
      })
      assert.deepEqual(databaseDump(service.db), before)
    }))
}

test('gzip body: a request without a body ignores Content-Encoding (a GET answers as usual)', () =>
  withService({}, async (service) => {
    const response = await service.fetch('/api/v1/operador/lotes', {
      headers: { OperatorKey: OPERATOR_KEY, 'Content-Encoding': 'br' },
    })
    assert.equal(response.status, 200)
    assert.deepEqual(await response.json(), [])
  }))

async function send(
  service: TestService,
  endpoint: 'insertar' | 'validar',
  body: Buffer,
  options: { encoding?: string | undefined; withoutKey?: boolean | undefined; chunked?: boolean | undefined },
): Promise<{ status: number; headers: Headers; body: Answer }> {
  const headers: Record<string, string> = { 'Content-Type': 'application/json' }
  if (!options.withoutKey) headers.ApiKey = API_KEY
  if (options.encoding !== undefined) headers['Content-Encoding'] = options.encoding
  const response = await service.fetch(`/api/v1/facturas/${endpoint}`, {
    method: 'POST',
    headers,
    ...(options.chunked ? { body: inPieces(body), duplex: 'half' } : { body }),
  } as RequestInit)
  return { status: response.status, headers: response.headers, body: (await response.json()) as Answer }
}

/** The body as a stream of 64 KB pieces: sent chunked, without Content-Length. */
function inPieces(body: Buffer): ReadableStream<Uint8Array> {
  let offset = 0
  return new ReadableStream({
    pull(controller) {
      if (offset >= body.length) return controller.close()
      controller.enqueue(body.subarray(offset, (offset += 64 * 1024)))
    },
  })
}
