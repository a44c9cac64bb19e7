import type { OriginalPlace } from '../batches/body-chunks.ts'
import { BODY_SCAN_WASM } from './body-scan.wasm.ts'

/**
 * One pass over a batch's bytes, before JSON.parse is asked to build anything: how many values
 * it would build (step 2 refuses absurdly dense bodies) and where each invoice lies. The body is
 * kept as the invoices' originals: invoice i's original is bytes `starts[i]..ends[i]` of the body
 * exactly as sent, so nothing is serialised again to store it (src/batches/body-chunks.ts).
 */
export interface BodyScan {
  bytes: number
  /** Objects and arrays opened outside strings: what JSON.parse would allocate as containers. */
  containers: number
  /** Commas outside strings: one more value each. */
  commas: number
  /** Deepest nesting of objects and arrays, the body's own array included. */
  maxDepth: number
  /**
   * Whether some string may hold a lone surrogate half: in valid UTF-8 one can only come from a
   * `\uD800`–`\uDFFF` escape, so a body whose strings have no `\ud`/`\uD` escape (any `\uDxxx`
   * counts, to keep the test simple) holds none and step 3's per-string check is skipped. Sound
   * for a body that parses; one that does not is refused in step 2 anyway.
   */
  mayHoldLoneSurrogate: boolean
  /**
   * The objects and arrays one level inside the body's top-level value; null when the body does
   * not close, or holds more than MAX_RECORDED. They are the batch's elements only when the rest
   * of the body is an array's punctuation, which step 2 checks before using them (`parseBatchBody`).
   */
  layout: BodyLayout | null
}

export interface BodyLayout {
  count: number
  starts: Uint32Array
  ends: Uint32Array
}

/**
 * More top-level values than any real batch holds (an invoice takes kilobytes): past this, their
 * places are not recorded, so a body of millions of `{}` costs no memory here (step 2 refuses it).
 */
const MAX_RECORDED = 1_000_000

/**
 * Scans the body (src/intake/body-scan.wat: compiled WebAssembly, at full speed from the first
 * byte). Inside a string only `"` and `\` matter, so bytes ≥ 0x80 (UTF-8) never look structural;
 * scalars at the top level are not listed (step 2 then parses the body whole). A body read into
 * `bodyBuffer` is scanned where it lies; any other is copied into a memory of its own first.
 */
export function scanBody(body: Uint8Array): BodyScan {
  const memory = memoryHolding(body) ?? memoryWithCopyOf(body)
  const length = body.length
  const places = placesAfter(length)
  const answers = new WebAssembly.Instance(scanModule, { body: { memory } }).exports as ScanExports
  answers.scan(BODY_OFFSET, BODY_OFFSET + length, places.starts, places.ends, places.max)
  const count = answers.count.value
  const closed = answers.closed.value === 1 && answers.depth.value === 0 && count <= MAX_RECORDED
  // Copied out: the body's memory is freed with the body, the layout lives as long as the batch.
  const layout = closed ? { count, starts: new Uint32Array(memory.buffer, places.starts, count).slice(), ends: new Uint32Array(memory.buffer, places.ends, count).slice() } : null
  return {
    bytes: length,
    containers: answers.containers.value,
    commas: answers.commas.value,
    maxDepth: answers.maxDepth.value,
    mayHoldLoneSurrogate: answers.surrogateEscape.value === 1,
    layout,
  }
}

/**
 * A buffer for a body of `size` bytes that `scanBody` reads in place: in a WebAssembly memory laid
 * out as body-scan.wat says, shared (SharedArrayBuffer) like every body, so the compression worker
 * reads it too (src/batches/body-compressor.ts).
 */
export function bodyBuffer(size: number): Buffer {
  const memory = scanMemory(size)
  memories.set(memory.buffer, memory)
  return Buffer.from(memory.buffer, BODY_OFFSET, size)
}

/** Where invoice `index` (0-based position in the batch) lies in the body. */
export function placeOf(layout: BodyLayout, index: number): OriginalPlace {
  return { offset: layout.starts[index]!, length: layout.ends[index]! - layout.starts[index]! }
}

interface ScanExports {
  scan: (body: number, end: number, starts: number, ends: number, max: number) => void
  containers: WebAssembly.Global
  commas: WebAssembly.Global
  maxDepth: WebAssembly.Global
  depth: WebAssembly.Global
  count: WebAssembly.Global
  surrogateEscape: WebAssembly.Global
  closed: WebAssembly.Global
}

const scanModule = new WebAssembly.Module(Buffer.from(BODY_SCAN_WASM, 'base64'))

/** The memories `bodyBuffer` made, by their buffer. */
const memories = new WeakMap<ArrayBufferLike, WebAssembly.Memory>()

/** The byte classes come first (body-scan.wat), then the body. */
const BODY_OFFSET = 256
/** Zero bytes after the body: the scan reads 16 bytes at a time. */
const PADDING = 16
const PAGE_BYTES = 64 * 1024

/**
 * Where the places of a body of `length` bytes go: after it and its padding, room for as many
 * elements as it can hold (each takes at least `{}` and a comma) up to MAX_RECORDED. Only the
 * pages written are ever given memory by the system.
 */
function placesAfter(length: number): { starts: number; ends: number; max: number } {
  const max = Math.min(MAX_RECORDED, Math.floor(length / 2) + 1)
  const starts = Math.ceil((BODY_OFFSET + length + PADDING) / 4) * 4
  return { starts, ends: starts + max * 4, max }
}

function scanMemory(size: number): WebAssembly.Memory {
  const places = placesAfter(size)
  const pages = Math.ceil((places.ends + places.max * 4) / PAGE_BYTES)
  return new WebAssembly.Memory({ initial: pages, maximum: pages, shared: true })
}

/** The memory `bodyBuffer` put this body in, when the scan can use it as it is. */
function memoryHolding(body: Uint8Array): WebAssembly.Memory | null {
  const memory = memories.get(body.buffer)
  if (memory === undefined || body.byteOffset !== BODY_OFFSET) return null
  const places = placesAfter(body.length)
  if (places.ends + places.max * 4 > memory.buffer.byteLength) return null
  // A body shorter than its buffer (a client that sent less than it announced) has zeros after it.
  const after = new Uint8Array(memory.buffer, BODY_OFFSET + body.length, PADDING)
  return after.every((byte) => byte === 0) ? memory : null
}

function memoryWithCopyOf(body: Uint8Array): WebAssembly.Memory {
  const memory = scanMemory(body.length)
  new Uint8Array(memory.buffer, BODY_OFFSET, body.length).set(body)
  return memory
}

export const COMMA = 0x2c
export const OPEN_ARRAY = 0x5b
export const CLOSE_ARRAY = 0x5d
