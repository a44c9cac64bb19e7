import { promisify } from 'node:util'
import { gzip } from 'node:zlib'

/**
 * A ZIP archive (PKWARE APPNOTE 6.3: local headers, the files deflated, a central directory) of a
 * few files of at most 4 GB each, as an XLSX file is one. Each file is deflated by zlib in the
 * thread pool (the event loop stays free) and in parallel; gzip is asked rather than a raw deflate
 * because its trailer carries the CRC-32 a ZIP entry needs, computed natively in the same pass.
 */
export interface ZipEntry {
  /** The path inside the archive, ASCII (`xl/worksheets/sheet1.xml`). */
  name: string
  data: Buffer
}

const gzipAsync = promisify(gzip)

/** Every entry dated 1980-01-01 00:00 (the earliest DOS date): the same files make the same archive. */
const DOS_TIME = 0
const DOS_DATE = (0 << 9) | (1 << 5) | 1
const DEFLATE = 8
const VERSION = 20

export async function zipFiles(entries: readonly ZipEntry[]): Promise<Buffer> {
  const deflated = await Promise.all(
    entries.map(async (entry) => ({ entry, ...deflateWithCrc(await gzipAsync(entry.data)) })),
  )
  const locals: Buffer[] = []
  const centrals: Buffer[] = []
  let offset = 0
  for (const { entry, data, crc } of deflated) {
    const name = Buffer.from(entry.name, 'ascii')
    const local = Buffer.alloc(30)
    local.writeUInt32LE(0x04034b50, 0)
    local.writeUInt16LE(VERSION, 4)
    local.writeUInt16LE(0, 6) // flags
    local.writeUInt16LE(DEFLATE, 8)
    local.writeUInt16LE(DOS_TIME, 10)
    local.writeUInt16LE(DOS_DATE, 12)
    local.writeUInt32LE(crc, 14)
    local.writeUInt32LE(data.length, 18)
    local.writeUInt32LE(entry.data.length, 22)
    local.writeUInt16LE(name.length, 26)
    local.writeUInt16LE(0, 28) // extra field
    const central = Buffer.alloc(46)
    central.writeUInt32LE(0x02014b50, 0)
    central.writeUInt16LE(VERSION, 4) // made by
    central.writeUInt16LE(VERSION, 6) // needed
    central.writeUInt16LE(0, 8)
    central.writeUInt16LE(DEFLATE, 10)
    central.writeUInt16LE(DOS_TIME, 12)
    central.writeUInt16LE(DOS_DATE, 14)
    central.writeUInt32LE(crc, 16)
    central.writeUInt32LE(data.length, 20)
    central.writeUInt32LE(entry.data.length, 24)
    central.writeUInt16LE(name.length, 28)
    // extra, comment, disk, internal and external attributes: 0
    central.writeUInt32LE(offset, 42)
    locals.push(local, name, data)
    centrals.push(central, name)
    offset += local.length + name.length + data.length
  }
  const directory = Buffer.concat(centrals)
  const end = Buffer.alloc(22)
  end.writeUInt32LE(0x06054b50, 0)
  end.writeUInt16LE(entries.length, 8)
  end.writeUInt16LE(entries.length, 10)
  end.writeUInt32LE(directory.length, 12)
  end.writeUInt32LE(offset, 16)
  return Buffer.concat([...locals, directory, end])
}

/**
 * The raw deflate stream and CRC-32 inside zlib's gzip output (RFC 1952): a 10-byte header (zlib
 * writes no file name or extra fields), the stream, then CRC-32 and length, little-endian.
 */
function deflateWithCrc(gzipped: Buffer): { data: Buffer; crc: number } {
  if (gzipped[3] !== 0) throw new Error('gzip con campos opcionales inesperados')
  return { data: gzipped.subarray(10, gzipped.length - 8), crc: gzipped.readUInt32LE(gzipped.length - 8) }
}
