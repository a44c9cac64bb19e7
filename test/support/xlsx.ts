import { strFromU8, unzipSync } from 'fflate'

/**
 * The first sheet of an XLSX file as rows of values (text, or numbers for numeric cells; '' for an
 * empty cell), read
 * by unzipping it and reading its XML: enough for the files the service writes.
 */
export function readFirstSheet(bytes: Uint8Array): Array<Array<string | number>> {
  const files = unzipSync(bytes)
  const sheet = strFromU8(files['xl/worksheets/sheet1.xml']!)
  const shared = files['xl/sharedStrings.xml'] ? [...strFromU8(files['xl/sharedStrings.xml']).matchAll(/<si>(?:<t[^>]*>([\s\S]*?)<\/t>)?<\/si>/g)].map((match) => unescapeXml(match[1] ?? '')) : []
  const rows = [...sheet.matchAll(/<row[^>]*>([\s\S]*?)<\/row>/g)].map((row) => {
    // A cell without a value may be left out: place each cell by its column letters, '' between.
    const values: Array<string | number> = []
    for (const cell of row[1]!.matchAll(/<c r="([A-Z]+)\d+"([^>]*?)(?:\/>|>(?:<v>([\s\S]*?)<\/v>|<is><t[^>]*>([\s\S]*?)<\/t><\/is>)?<\/c>)/g)) {
      const column = [...cell[1]!].reduce((index, letter) => index * 26 + letter.charCodeAt(0) - 64, 0) - 1
      while (values.length < column) values.push('')
      values.push(valueOf(cell[2]!, cell[3], cell[4], shared))
    }
    return values
  })
  // Empty cells at the end of a row are left out too: rows are as wide as the header row.
  const width = rows[0]?.length ?? 0
  return rows.map((values) => [...values, ...Array<string>(Math.max(0, width - values.length)).fill('')])
}

function valueOf(attributes: string, value: string | undefined, inline: string | undefined, shared: readonly string[]): string | number {
  if (/t="s"/.test(attributes)) return shared[Number(value)]!
  if (/t="inlineStr"/.test(attributes)) return unescapeXml(inline ?? '')
  if (/t="str"/.test(attributes) || value === undefined) return unescapeXml(value ?? '')
  return Number(value)
}

function unescapeXml(text: string): string {
  return text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&amp;/g, '&')
}
