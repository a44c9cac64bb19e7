/**
 * JSON text as the service reads it from a file or a request: UTF-8, with an optional byte-order
 * mark (some Windows tools write one) ignored.
 * @throws SyntaxError when it is not JSON.
 */
export function parseJsonText(text: string): unknown {
  return JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text)
}
