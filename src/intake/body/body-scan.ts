import { setFlagsFromString } from 'node:v8'
import type { OriginalPlace } from '../../batches/body-chunks.ts'
import { BODY_SCAN_WASM } from './body-scan.wasm.ts'
import type { TimeSlices } from '../../core/time-slices.ts'

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
   * The most bytes between a string's quotes (keys included). A string of n bytes has at most n
   * characters: a body whose strings are all within the limit of text (contract §9) has no string
   * of an invoice measured in step 3.
   */
  longestStringBytes: number
  /**
   * The objects and arrays one level inside the body's top-level value; null when the body does
   * not close, or holds more than MAX_RECORDED. They are the batch's elements only when the rest
   * of the body is an array's punctuation, which step 2 checks before using them (`parseBatchBody`).
   */
  layout: BodyLayout | null
  /**
   * Commas one level inside the top-level value, at least PIECE_BYTES apart: when that value is an
   * array, they cut it into pieces of whole elements that parse one at a time (`parseBatchBody`),
   * so a body of millions of scalars is never one JSON.parse.
   */
  pieceEnds: number[]
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
 * The least size of a piece of a body that is not a plain array of objects: its parse takes
 * ~5–10 ms at the densest a body may be (step 2's density rule), so a body of 128 MB of numbers is
 * parsed in 512 pieces with the event loop let in between (src/core/time-slices.ts).
 */
export const PIECE_BYTES = 256 * 1024

/**
 * Scans the body (src/intake/body/body-scan.wat: compiled WebAssembly, at full speed from the first
 * byte), SCAN_PART_BYTES at a time with the event loop let in between (`slices`). Inside a string
 * only `"` and `\` matter, so bytes ≥ 0x80 (UTF-8) never look structural; scalars at the top level
 * are not listed (step 2 then parses the body by pieces). A body read into `bodyBuffer` is scanned
 * where it lies; any other is copied into a memory of its own first.
 */
export async function scanBody(body: Uint8Array, options: ScanOptions = {}): Promise<BodyScan> {
  const { slices, pieceBytes = PIECE_BYTES, partBytes = SCAN_PART_BYTES } = options
  const places = new Places()
  const pieceEnds: number[] = []
  const memory = memoryHolding(body) ?? memoryWithCopyOf(body)
  const element = (start: number, end: number) => places.add(start, end)
  const piece = (comma: number) => pieceEnds.push(comma)
  const answers = new WebAssembly.Instance(scanModule, { body: { memory, element, piece } }).exports as ScanExports
  const end = BODY_OFFSET + body.length
  for (let at = BODY_OFFSET; at < end;) {
    at = answers.scan(BODY_OFFSET, at, Math.min(at + partBytes, end), end, pieceBytes, MAX_RECORDED)
    if (slices?.due()) await slices.next()
  }
  // Read unsigned: a body of 2 GiB can count 2³¹ of something.
  const count = answers.count.value >>> 0
  const closed = answers.stringsClosed.value === 1 && answers.depth.value === 0n && count <= MAX_RECORDED
  return {
    bytes: body.length,
    containers: answers.containers.value >>> 0,
    commas: answers.commas.value >>> 0,
    maxDepth: Number(answers.maxDepth.value),
    mayHoldLoneSurrogate: answers.surrogateEscape.value === 1,
    longestStringBytes: answers.longestString.value >>> 0,
    layout: closed ? places.layout() : null,
    pieceEnds,
  }
}

export interface ScanOptions {
  /** Lets the event loop in between parts (none: the whole body at once). */
  slices?: TimeSlices
  /** See PIECE_BYTES (tests cut bodies into tiny pieces). */
  pieceBytes?: number
  /** See SCAN_PART_BYTES (tests cut bodies into tiny parts). */
  partBytes?: number
}

/** ~10 ms of scanning at the densest; the supplier's 56 MB batch is scanned in 7 parts. */
const SCAN_PART_BYTES = 8 * 1024 * 1024

/**
 * A buffer for a body of `size` bytes that `scanBody` reads in place: in a WebAssembly memory laid
 * out as body-scan.wat says, shared (SharedArrayBuffer) like every body, so the compression worker
 * reads it too (src/intake/body/body-compressor.ts). Each such memory reserves ~10 GB of address space
 * (not memory) while it lives, V8's guard for WebAssembly memories. Node's own HTTP parser
 * (undici's llhttp) is WebAssembly too and is set up as the service starts: a process limited
 * below that (`ulimit -v`) did not start before this scan either.
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
  scan: (body: number, from: number, to: number, end: number, pieceBytes: number, maxElements: number) => number
  containers: WebAssembly.Global
  commas: WebAssembly.Global
  maxDepth: WebAssembly.Global<bigint>
  depth: WebAssembly.Global<bigint>
  count: WebAssembly.Global
  surrogateEscape: WebAssembly.Global
  longestString: WebAssembly.Global
  stringsClosed: WebAssembly.Global
}

/** The elements' places as the scan finds them, up to MAX_RECORDED (more are only counted). */
class Places {
  private count = 0
  private starts = new Uint32Array(1024)
  private ends = new Uint32Array(1024)

  add(start: number, end: number): void {
    if (this.count === this.starts.length) {
      this.starts = grown(this.starts)
      this.ends = grown(this.ends)
    }
    this.starts[this.count] = start
    this.ends[this.count] = end
    this.count += 1
  }

  layout(): BodyLayout {
    return { count: this.count, starts: this.starts.subarray(0, this.count), ends: this.ends.subarray(0, this.count) }
  }
}

function grown(array: Uint32Array<ArrayBuffer>): Uint32Array<ArrayBuffer> {
  const larger = new Uint32Array(array.length * 2)
  larger.set(array)
  return larger
}

const scanModule = compiledEagerly(Buffer.from(BODY_SCAN_WASM, 'base64'))

/**
 * A module compiled by V8's optimising compiler as the service starts: its baseline code at once,
 * its optimised code on a background thread moments later. By default V8 compiles a WebAssembly
 * function with its baseline compiler when it is first called, and optimises it after it has run
 * for a while, for the calls that come later: a fresh service scanned its first batch, one call
 * over all its bytes, in baseline code (the supplier's 1,000 invoices in ~9 ms instead of ~4.5).
 * The two flags asking for eager compilation are V8's, for the whole process: they are set back
 * to V8's defaults at once (no deployment of the service turns them off).
 */
function compiledEagerly(bytes: Uint8Array): WebAssembly.Module {
  setFlagsFromString('--no-wasm-lazy-compilation')
  setFlagsFromString('--no-wasm-dynamic-tiering')
  try {
    return new WebAssembly.Module(bytes)
  } finally {
    setFlagsFromString('--wasm-dynamic-tiering')
    setFlagsFromString('--wasm-lazy-compilation')
  }
}

/** The memories `bodyBuffer` made, by their buffer. */
const memories = new WeakMap<ArrayBufferLike, WebAssembly.Memory>()

/** The byte classes come first (body-scan.wat), then the body. */
const BODY_OFFSET = 256
/** Room after the body for the scan's last 16-byte read. */
const AFTER_BODY = 16
const PAGE_BYTES = 64 * 1024

function scanMemory(size: number): WebAssembly.Memory {
  const pages = Math.ceil((BODY_OFFSET + size + AFTER_BODY) / PAGE_BYTES)
  return new WebAssembly.Memory({ initial: pages, maximum: pages, shared: true })
}

/** The memory `bodyBuffer` put this body in, when the body lies where the scan expects it. */
function memoryHolding(body: Uint8Array): WebAssembly.Memory | null {
  const memory = memories.get(body.buffer)
  const fits =
    memory !== undefined &&
    body.byteOffset === BODY_OFFSET &&
    BODY_OFFSET + body.length + AFTER_BODY <= memory.buffer.byteLength
  return fits ? memory : null
}

function memoryWithCopyOf(body: Uint8Array): WebAssembly.Memory {
  const memory = scanMemory(body.length)
  new Uint8Array(memory.buffer, BODY_OFFSET, body.length).set(body)
  return memory
}

export const COMMA = 0x2c
export const OPEN_ARRAY = 0x5b
export const CLOSE_ARRAY = 0x5d
