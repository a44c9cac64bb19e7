import assert from 'node:assert/strict'
import { connect, type Socket } from 'node:net'
import { test } from 'node:test'
import { all } from '../../src/db/database.ts'
import { databaseState, exampleBatch, postBatch } from '../support/batches.ts'
import { FACTURA, operator, registerReturn, seedReturns } from '../support/operator.ts'
import { API_KEY, OPERATOR_KEY, withService, type TestService } from '../support/service.ts'

/** What a raw socket got back: status, headers and body of the first answer. */
interface RawAnswer {
  status: number
  headers: Record<string, string>
  body: string
}

function openSocket(service: TestService): Promise<Socket> {
  const { port } = new URL(service.url)
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => resolve(socket))
    socket.once('error', reject)
  })
}

/** Reads until the peer closes (or `ms` pass) and parses one HTTP answer. */
function answerOf(socket: Socket, ms = 10_000): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    let text = ''
    const timer = setTimeout(() => reject(new Error(`no answer in ${ms} ms: ${text}`)), ms)
    socket.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')))
    socket.on('close', () => {
      clearTimeout(timer)
      const [head = '', body = ''] = text.split('\r\n\r\n')
      const [statusLine = '', ...lines] = head.split('\r\n')
      const headers = Object.fromEntries(
        lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
      )
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body })
    })
    socket.on('error', () => {})
  })
}

const batchHead = (length: number) =>
  `POST /api/v1/facturas/insertar HTTP/1.1\r\nHost: x\r\nApiKey: ${API_KEY}\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`

test('hardening: a batch body that does not arrive within server.bodyTimeoutSeconds → 408 JSON in Spanish, connection closed', () =>
  withService({ config: { server: { bodyTimeoutSeconds: 1 } } }, async (service) => {
    const socket = await openSocket(service)
    socket.write(`${batchHead(5000)}[{"Nfactura":`)
    const answer = await answerOf(socket)
    assert.equal(answer.status, 408)
    assert.deepEqual(JSON.parse(answer.body), {
      success: false,
      message: 'El cuerpo de la solicitud no terminó de llegar en 1 segundos; revise la conexión y reenvíe.',
    })
    assert.equal(answer.headers.connection, 'close')
    assert.deepEqual(
      service.logLines().filter((line) => line.msg === 'error interno'),
      [],
      'a slow client is not an internal error (no stack, no alert)',
    )
  }))

test('hardening: more batch bodies at once than intake.maxConcurrentBatches → 503 with Retry-After, body not read', () =>
  withService(
    { config: { intake: { maxConcurrentBatches: 1 }, rateLimits: { insertPerMinute: 100 } } },
    async (service) => {
      const slow = await openSocket(service)
      slow.write(`${batchHead(100_000)}[`)
      await new Promise((resolve) => setTimeout(resolve, 100))
      const before = databaseState(service.db)
      const response = await service.client('/api/v1/facturas/insertar', {
        method: 'POST',
        body: JSON.stringify(exampleBatch()),
      })
      assert.equal(response.status, 503)
      assert.equal(response.headers.get('retry-after'), '10')
      assert.deepEqual(await response.json(), {
        success: false,
        message: 'El servidor ya está recibiendo 1 lote(s) a la vez; reenvíe este lote en unos segundos.',
      })
      slow.destroy()
      await new Promise((resolve) => setTimeout(resolve, 100))
      assert.deepEqual(databaseState(service.db), before)
      assert.equal(
        (await postBatch(service, exampleBatch())).status,
        200,
        'the slot is free again once the slow client left',
      )
    },
  ))

test('hardening: an operator body over 1 MB → 413, even when server.maxBodyMB is larger (declared and chunked)', () =>
  withService({}, async (service) => {
    const declared = await operator(service, 'POST', 'conceptos', { codigo: 'X', descripcion: 'x'.repeat(1_100_000) })
    assert.equal(declared.status, 413)
    assert.equal(declared.body.message, 'El cuerpo de la solicitud (1.05 MB) excede el máximo permitido de 1 MB.')
    const chunks = new ReadableStream({
      start(controller) {
        for (let i = 0; i < 12; i++) controller.enqueue(new TextEncoder().encode('x'.repeat(100_000)))
        controller.close()
      },
    })
    const chunked = await service.fetch('/api/v1/operador/conceptos', {
      method: 'POST',
      headers: { OperatorKey: OPERATOR_KEY, Operador: 'Ana' },
      body: chunks,
      duplex: 'half',
    } as RequestInit)
    assert.equal(chunked.status, 413)
  }))

const malformed: Array<{ name: string; request: string; status: number; message: string }> = [
  {
    name: 'a malformed request line',
    request: 'ESTO NO ES HTTP\r\n\r\n',
    status: 400,
    message: 'La solicitud HTTP está mal formada.',
  },
  {
    name: 'headers over 16 KB',
    request: `GET /api/v1/ping HTTP/1.1\r\nHost: x\r\nX-Relleno: ${'a'.repeat(20_000)}\r\n\r\n`,
    status: 431,
    message: 'Los encabezados de la solicitud son demasiado grandes.',
  },
]

for (const scenario of malformed) {
  test(`hardening: Node's own answer to ${scenario.name} → ${scenario.status} with the Spanish JSON error shape`, () =>
    withService({}, async (service) => {
      const socket = await openSocket(service)
      socket.write(scenario.request)
      const answer = await answerOf(socket)
      assert.equal(answer.status, scenario.status)
      assert.match(answer.headers['content-type'] ?? '', /^application\/json/)
      assert.deepEqual(JSON.parse(answer.body), { success: false, message: scenario.message })
    }))
}

test('hardening: a client that disconnects mid-batch is logged as such, never as an internal error, and not alerted', () =>
  withService({}, async (service) => {
    const socket = await openSocket(service)
    socket.write(`${batchHead(1_000_000)}[${'{"a":1},'.repeat(1000)}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
    socket.destroy()
    for (let i = 0; i < 100 && !service.logLines().some((line) => line.msg === 'request'); i++)
      await new Promise((resolve) => setTimeout(resolve, 10))
    const lines = service.logLines()
    assert.equal(lines.filter((line) => line.msg === 'error interno').length, 0)
    const request = lines.find((line) => line.msg === 'request')
    assert.equal(request?.aborted, true)
  }))

const operatorNames: Array<{ name: string; header: string; status: number; message?: string; stored?: string }> = [
  {
    name: 'a percent-encoded blank',
    header: '%20',
    status: 422,
    message: 'El encabezado Operador está en blanco: escriba el nombre de la persona que hace el cambio.',
  },
  {
    name: 'a percent-encoded NUL',
    header: 'Ana%00',
    status: 422,
    message: 'El encabezado Operador tiene caracteres de control: escriba solo el nombre de la persona.',
  },
  {
    name: 'a tab inside the name',
    header: 'Ana%09Luc%C3%ADa',
    status: 422,
    message: 'El encabezado Operador tiene caracteres de control: escriba solo el nombre de la persona.',
  },
  {
    name: 'raw UTF-8 bytes',
    header: Buffer.from('Ana Lucía', 'utf8').toString('latin1'),
    status: 201,
    stored: 'Ana Lucía',
  },
  { name: 'raw Latin-1 bytes', header: 'Ana Lucía', status: 201, stored: 'Ana Lucía' },
  { name: 'percent-encoded UTF-8', header: 'Ana%20Luc%C3%ADa', status: 201, stored: 'Ana Lucía' },
]

for (const scenario of operatorNames) {
  test(`hardening: Operador header with ${scenario.name} → ${scenario.status}`, () =>
    withService({}, async (service) => {
      const { status, body } = await operator(
        service,
        'POST',
        'conceptos',
        { codigo: 'DANADO', descripcion: 'Producto dañado' },
        { Operador: scenario.header },
      )
      assert.equal(status, scenario.status, JSON.stringify(body))
      if (scenario.message) assert.deepEqual(body, { success: false, message: scenario.message })
      const actors = all(service.db, service.db.query.selectFrom('audit_log').select('actor')).map((row) => row.actor)
      assert.deepEqual(actors, scenario.stored ? [scenario.stored] : [])
    }))
}

for (const fecha of ['0000-01-01', '9999-12-31', '2026-11-21T23:59:59', '2026-11-23']) {
  test(`hardening: a return dated ${fecha} (before its invoice or after today) → 422, nothing written`, () =>
    withService({}, async (service) => {
      await seedReturns(service)
      const { status, body } = await registerReturn(service, [{ numeroLinea: 1, unidades: 1 }], { fecha })
      assert.equal(status, 422)
      const day = fecha.slice(0, 10)
      assert.equal(
        body.message,
        day < '2026-11-22'
          ? `fecha: ${day} es anterior a la fecha de la factura (2026-11-22); una devolución no puede ser anterior a su factura.`
          : `fecha: ${day} es posterior a hoy (2026-11-22); registre la devolución con la fecha en que se recibió.`,
      )
      assert.equal(service.db.sqlite.prepare('SELECT count(*) FROM returns').pluck().get(), 0)
    }))
}

test(`hardening: a return dated today or on its invoice's date is accepted (${FACTURA})`, () =>
  withService({}, async (service) => {
    await seedReturns(service)
    assert.equal(
      (await registerReturn(service, [{ numeroLinea: 1, unidades: 1 }], { fecha: '2026-11-22T00:00:00' })).status,
      201,
    )
  }))

const repeated: Array<{ path: string; headers: Record<string, string>; name: string }> = [
  {
    path: '/api/v1/devoluciones/listar?pagina=1&pagina=2',
    headers: { ApiKey: API_KEY, Fecha: '22/11/2026' },
    name: 'pagina',
  },
  {
    path: '/api/v1/operador/lotes?fecha=2026-11-22&fecha=2026-11-21',
    headers: { OperatorKey: OPERATOR_KEY },
    name: 'fecha',
  },
  {
    path: '/api/v1/operador/auditoria?tipo=factura&tipo=devolucion',
    headers: { OperatorKey: OPERATOR_KEY },
    name: 'tipo',
  },
]

for (const scenario of repeated) {
  test(`hardening: ${scenario.name} given twice in ${scenario.path.split('?')[0]} → 422 naming it`, () =>
    withService({}, async (service) => {
      const response = await service.fetch(scenario.path, { headers: scenario.headers })
      assert.equal(response.status, 422)
      assert.deepEqual(await response.json(), {
        success: false,
        message: `El parámetro de consulta ${scenario.name} aparece más de una vez: envíelo una sola vez.`,
      })
    }))
}

const keysInPaths = [
  {
    name: 'a matrix parameter',
    path: () => '/api/v1/manifiestos/1/estado;ApiKey=SECRETO-DEL-CLIENTE',
    secret: 'SECRETO-DEL-CLIENTE',
  },
  { name: 'the configured key as a path segment', path: () => `/api/v1/${API_KEY}/estado`, secret: API_KEY },
  {
    name: 'the configured key as a manifest number',
    path: () => `/api/v1/manifiestos/${API_KEY}/estado`,
    secret: API_KEY,
  },
]

for (const scenario of keysInPaths) {
  test(`hardening: a key in the path (${scenario.name}) is never echoed in the answer nor written to the log`, () =>
    withService({}, async (service) => {
      const response = await service.client(scenario.path())
      assert.equal(response.status, 404)
      const text = await response.text()
      assert.doesNotMatch(text, new RegExp(scenario.secret))
      assert.match(text, /\[clave oculta\]/)
      for (let i = 0; i < 100 && !service.logText().includes('"request"'); i++)
        await new Promise((resolve) => setTimeout(resolve, 10))
      assert.ok(service.logText().includes('[clave oculta]'))
      assert.doesNotMatch(service.logText(), new RegExp(scenario.secret))
    }))
}
