/**
 * Counts, as the body arrives, the bytes that start JSON values: commas (one more value each) and
 * `{` / `[` (one more object or array each). Counted without telling strings apart, so the counts
 * are upper bounds; they bound the memory and time JSON.parse would need before it is called
 * (a body of a million `{}` takes minutes and gigabytes to parse).
 *
 * Four bytes are tested at a time (SWAR): a 50 MB batch is counted in ~40 ms, while it arrives.
 */
export class JsonShape {
  bytes = 0
  commas = 0
  containers = 0

  add(chunk: Uint8Array): void {
    this.bytes += chunk.length
    const head = Math.min(chunk.length, (4 - (chunk.byteOffset & 3)) & 3)
    const words = (chunk.length - head) >>> 2
    for (let i = 0; i < head; i++) this.addByte(chunk[i]!)
    const view = words === 0 ? EMPTY : new Uint32Array(chunk.buffer, chunk.byteOffset + head, words)
    let commas = 0
    let containers = 0
    for (let i = 0; i < words; i++) {
      const word = view[i]!
      commas += countZeroBytes(word ^ COMMAS)
      // `{` (0x7b) and `[` (0x5b) differ only in bit 0x20: both become 0x7b with it set.
      containers += countZeroBytes((word | CASE_BITS) ^ OPENERS)
    }
    this.commas += commas
    this.containers += containers
    for (let i = head + words * 4; i < chunk.length; i++) this.addByte(chunk[i]!)
  }

  private addByte(byte: number): void {
    if (byte === 0x2c) this.commas += 1
    else if (byte === 0x7b || byte === 0x5b) this.containers += 1
  }
}

const EMPTY = new Uint32Array(0)
const COMMAS = 0x2c2c2c2c
const OPENERS = 0x7b7b7b7b
const CASE_BITS = 0x20202020

/** How many of the word's four bytes are zero (exact: no borrow between bytes). */
function countZeroBytes(word: number): number {
  const high = ~(((word & 0x7f7f7f7f) + 0x7f7f7f7f) | word | 0x7f7f7f7f)
  return Math.imul((high >>> 7) & 0x01010101, 0x01010101) >>> 24
}
