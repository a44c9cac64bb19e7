/**
 * JSON text as the service reads it from a file or a request: UTF-8, with an optional byte-order
 * mark (some Windows tools write one) ignored.
 * @throws SyntaxError when it is not JSON.
 */
export function parseJsonText(text: string): unknown {
  return JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text)
}

/** How many bytes the UTF-8 byte-order mark takes at the start of `bytes` (3), or 0: the mark `parseJsonText` ignores. */
export function byteOrderMarkLength(bytes: Uint8Array): number {
  return bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0
}
