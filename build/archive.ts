/**
 * The two release archive formats, written in memory from a list of entries: `.tar.gz` for Linux
 * (ustar, written here — the format is a 512-byte header per file) and `.zip` for Windows (fflate,
 * whose output does not depend on the build machine's zlib).
 *
 * Both are reproducible: the same entries and time give the same bytes (on the same Node, whose
 * zlib compresses the tar). Owner is root (0/0), modes are 755 for folders and executables and
 * 644 for everything else whatever the files' modes on the build machine, and every entry
 * carries the one time passed in.
 */
import { gzipSync } from 'node:zlib'
import { zipSync, type Zippable } from 'fflate'

/** One file of an archive: its path inside it (with `/`), its bytes, and whether it is a program. */
export interface ArchiveEntry {
  path: string
  data: Uint8Array
  executable: boolean
}

const BLOCK = 512

/** A gzip-compressed ustar archive of the entries, with an entry for each folder they need. */
export function tarGz(entries: ArchiveEntry[], mtime: Date): Buffer {
  const seconds = Math.floor(mtime.getTime() / 1000)
  const blocks: Buffer[] = []
  for (const folder of foldersOf(entries)) blocks.push(tarHeader(`${folder}/`, 0o755, 0, seconds, '5'))
  for (const entry of entries) {
    blocks.push(tarHeader(entry.path, modeOf(entry), entry.data.length, seconds, '0'), Buffer.from(entry.data))
    const padding = (BLOCK - (entry.data.length % BLOCK)) % BLOCK
    if (padding > 0) blocks.push(Buffer.alloc(padding))
  }
  // The end of a tar archive is two empty blocks.
  blocks.push(Buffer.alloc(2 * BLOCK))
  // Node's gzip header carries no file name and a zero time, so the bytes depend on the content only.
  return gzipSync(Buffer.concat(blocks), { level: 9 })
}

/** A zip archive of the entries, with Unix modes (read by `unzip` on Linux, ignored by Windows). */
export function zip(entries: ArchiveEntry[], mtime: Date): Buffer {
  // fflate writes the zip's DOS time from the Date's *local* fields; shifting by the build
  // machine's offset makes those fields the UTC time, so the bytes do not depend on its zone.
  const local = new Date(mtime.getTime() + mtime.getTimezoneOffset() * 60_000)
  const files: Zippable = {}
  for (const folder of foldersOf(entries)) {
    // 0x10 is the MS-DOS "directory" attribute, beside the Unix mode in the high 16 bits.
    files[`${folder}/`] = [
      new Uint8Array(0),
      { os: 3, attrs: ((0o040000 | 0o755) << 16) | 0x10, mtime: local, level: 0 },
    ]
  }
  for (const entry of entries) {
    files[entry.path] = [entry.data, { os: 3, attrs: ((0o100000 | modeOf(entry)) << 16) >>> 0, mtime: local, level: 9 }]
  }
  return Buffer.from(zipSync(files))
}

function modeOf(entry: ArchiveEntry): number {
  return entry.executable ? 0o755 : 0o644
}

/** Every folder the entries sit in, parents first, in a stable order. */
function foldersOf(entries: ArchiveEntry[]): string[] {
  const folders = new Set<string>()
  for (const entry of entries) {
    const parts = entry.path.split('/').slice(0, -1)
    for (let i = 1; i <= parts.length; i++) folders.add(parts.slice(0, i).join('/'))
  }
  return [...folders].sort()
}

function tarHeader(name: string, mode: number, size: number, mtime: number, type: '0' | '5'): Buffer {
  if (Buffer.byteLength(name) > 100) throw new Error(`tar: el nombre «${name}» pasa de 100 bytes (ustar sin prefijo)`)
  const header = Buffer.alloc(BLOCK)
  header.write(name, 0, 100, 'utf8')
  writeOctal(header, mode, 100, 8)
  writeOctal(header, 0, 108, 8) // uid
  writeOctal(header, 0, 116, 8) // gid
  writeOctal(header, size, 124, 12)
  writeOctal(header, mtime, 136, 12)
  header.write(type, 156, 1, 'ascii')
  header.write('ustar\u000000', 257, 8, 'ascii')
  header.write('root', 265, 32, 'ascii')
  header.write('root', 297, 32, 'ascii')
  // The checksum is the sum of the header's bytes with its own field counted as eight spaces.
  header.fill(' ', 148, 156)
  let sum = 0
  for (const byte of header) sum += byte
  header.write(`${sum.toString(8).padStart(6, '0')}\u0000 `, 148, 8, 'ascii')
  return header
}

/** An octal number filling the field, NUL-terminated (sizes up to 8 GiB fit in 12 bytes). */
function writeOctal(header: Buffer, value: number, offset: number, length: number): void {
  const digits = value.toString(8).padStart(length - 1, '0')
  if (digits.length > length - 1) throw new Error(`tar: el valor ${value} no cabe en el encabezado`)
  header.write(`${digits}\u0000`, offset, length, 'ascii')
}
