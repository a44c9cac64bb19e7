/**
 * A header's text as the sender meant it. Node reads header bytes as Latin-1; a client that sent
 * raw UTF-8 (`Operador: Ana Lucía`) is decoded as UTF-8 when the bytes are valid UTF-8.
 */
export function headerText(raw: string | string[] | undefined): string | undefined {
  const value = Array.isArray(raw) ? raw[0] : raw
  if (value === undefined || !/[\u0080-\u00ff]/.test(value)) return value
  const bytes = Buffer.from(value, 'latin1')
  const utf8 = bytes.toString('utf8')
  return Buffer.from(utf8, 'utf8').equals(bytes) ? utf8 : value
}
