import assert from 'node:assert/strict'
import { test } from 'node:test'
import { inflateRawSync } from 'node:zlib'
import { strFromU8, unzipSync } from 'fflate'
import { columnLetters, writeXlsx, type XlsxSheet } from '../../src/core/xlsx.ts'
import { zipFiles } from '../../src/core/zip.ts'
import { readFirstSheet, readSheetLayout } from '../support/xlsx.ts'

const SHEET: XlsxSheet = {
  name: 'Hoja',
  columns: [
    { header: 'Texto', width: 8 },
    { header: 'Monto', width: 8, numberFormat: '0.0000', align: 'right' },
  ],
  font: { name: 'Arial', size: 8 },
  header: { fill: '1A7A4A', color: 'FFFFFF', height: 14 },
}

test('xlsx: column letters as Excel names them', () => {
  assert.deepEqual([0, 25, 26, 51, 52, 70, 701, 702].map(columnLetters), [
    'A',
    'Z',
    'AA',
    'AZ',
    'BA',
    'BS',
    'ZZ',
    'AAA',
  ])
})

test('xlsx: texts, numbers and empty cells read back; a text is never markup, a control character is escaped as Excel reads it', async () => {
  const rows = [
    ['a<b & "c" > d', -0.5],
    ['\u0001x_x0041_', null],
    [null, 1234567.25],
    ['  con espacios  ', 0],
  ]
  const bytes = await writeXlsx(SHEET, rows)
  assert.deepEqual(readFirstSheet(bytes), [
    ['Texto', 'Monto'],
    ['a<b & "c" > d', -0.5],
    ['_x0001_x_x005F_x0041_', ''],
    ['', 1234567.25],
    ['  con espacios  ', 0],
  ])
  const shared = strFromU8(unzipSync(bytes)['xl/sharedStrings.xml']!)
  assert.match(shared, /<t xml:space="preserve">  con espacios  <\/t>/)
  const layout = readSheetLayout(bytes)
  assert.deepEqual(layout.formats.slice(1), [
    ['General', '0.0000'],
    ['General', ''],
    ['', '0.0000'],
    ['General', '0.0000'],
  ])
  assert.deepEqual([layout.name, layout.frozenRows, layout.autoFilter], ['Hoja', 1, 'A1:B5'])
  // Wide enough for the longest value (16 characters, and one more), and 1234567.2500 as its format shows it.
  assert.deepEqual(layout.widths, [17, 13])
})

test('xlsx: a row of another width is refused', async () => {
  await assert.rejects(writeXlsx(SHEET, [['solo una']]), /fila de 1 celdas en una hoja de 2 columnas/)
})

test('zip: entries read back byte for byte, with their CRC-32', async () => {
  const big = Buffer.from('fila,'.repeat(200_000))
  const archive = await zipFiles([
    { name: 'a.txt', data: Buffer.from('hola') },
    { name: 'dir/b.csv', data: big },
    { name: 'vacio', data: Buffer.alloc(0) },
  ])
  const files = unzipSync(archive)
  assert.deepEqual(Object.keys(files), ['a.txt', 'dir/b.csv', 'vacio'])
  assert.equal(strFromU8(files['a.txt']!), 'hola')
  assert.ok(Buffer.from(files['dir/b.csv']!).equals(big))
  assert.equal(files.vacio!.length, 0)
  // The local header's CRC-32 and sizes describe its data (a reader that checks them accepts the file).
  const crcOf = (data: Buffer) => {
    let crc = 0xffffffff
    for (const byte of data) {
      crc ^= byte
      for (let bit = 0; bit < 8; bit++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1
    }
    return (crc ^ 0xffffffff) >>> 0
  }
  const nameLength = archive.readUInt16LE(26)
  const compressed = archive.readUInt32LE(18)
  const data = archive.subarray(30 + nameLength, 30 + nameLength + compressed)
  assert.equal(inflateRawSync(data).toString(), 'hola')
  assert.equal(archive.readUInt32LE(14), crcOf(Buffer.from('hola')))
  assert.equal(archive.readUInt32LE(22), 4)
})
