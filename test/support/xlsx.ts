import { strFromU8, unzipSync } from 'fflate'

/**
 * The first sheet of an XLSX file as rows of values (text, or numbers for numeric cells; '' for an
 * empty cell), read
 * by unzipping it and reading its XML: enough for the files the service writes.
 */
export function readFirstSheet(bytes: Uint8Array): Array<Array<string | number>> {
  const files = unzipSync(bytes)
  const sheet = strFromU8(files['xl/worksheets/sheet1.xml']!)
  const shared = files['xl/sharedStrings.xml']
    ? [...strFromU8(files['xl/sharedStrings.xml']).matchAll(/<si>(?:<t[^>]*>([\s\S]*?)<\/t>)?<\/si>/g)].map((match) =>
        unescapeXml(match[1] ?? ''),
      )
    : []
  const rows = [...sheet.matchAll(/<row[^>]*>([\s\S]*?)<\/row>/g)].map((row) => {
    // A cell without a value may be left out: place each cell by its column letters, '' between.
    const values: Array<string | number> = []
    for (const cell of row[1]!.matchAll(
      /<c r="([A-Z]+)\d+"([^>]*?)(?:\/>|>(?:<v>([\s\S]*?)<\/v>|<is><t[^>]*>([\s\S]*?)<\/t><\/is>)?<\/c>)/g,
    )) {
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

function valueOf(
  attributes: string,
  value: string | undefined,
  inline: string | undefined,
  shared: readonly string[],
): string | number {
  if (/t="s"/.test(attributes)) return shared[Number(value)]!
  if (/t="inlineStr"/.test(attributes)) return unescapeXml(inline ?? '')
  if (/t="str"/.test(attributes) || value === undefined) return unescapeXml(value ?? '')
  return Number(value)
}

function unescapeXml(text: string): string {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&')
}

/** What a workbook shows besides its values: its first sheet's name, formats, frozen rows, filter and widths. */
export interface SheetLayout {
  name: string
  rows: Array<Array<string | number>>
  /** Each cell's number format code (`General`, `0.0000`), rows as wide as the header; '' for a cell not written. */
  formats: string[][]
  /** Rows frozen at the top (the pane's ySplit), 0 for none. */
  frozenRows: number
  /** The autofilter's range, or null. */
  autoFilter: string | null
  /** Column widths in characters, by column. */
  widths: number[]
}

/** The first sheet of an XLSX file with its layout, read from its XML as `readFirstSheet` reads values. */
export function readSheetLayout(bytes: Uint8Array): SheetLayout {
  const files = unzipSync(bytes)
  const sheet = strFromU8(files['xl/worksheets/sheet1.xml']!)
  const workbook = strFromU8(files['xl/workbook.xml']!)
  const styles = strFromU8(files['xl/styles.xml']!)
  const custom = new Map(
    [...styles.matchAll(/<numFmt numFmtId="(\d+)" formatCode="([^"]*)"\/>/g)].map((match) => [
      Number(match[1]),
      unescapeXml(match[2]!),
    ]),
  )
  const cellXfs = /<cellXfs[^>]*>([\s\S]*?)<\/cellXfs>/.exec(styles)?.[1] ?? ''
  const formatOfStyle = [...cellXfs.matchAll(/<xf [^>]*?numFmtId="(\d+)"/g)].map((match) =>
    Number(match[1]) === 0 ? 'General' : (custom.get(Number(match[1])) ?? `builtin ${match[1]}`),
  )
  const rows = readFirstSheet(bytes)
  const formats = [...sheet.matchAll(/<row[^>]*>([\s\S]*?)<\/row>/g)].map((row) => {
    const codes = Array<string>(rows[0]?.length ?? 0).fill('')
    for (const cell of row[1]!.matchAll(/<c r="([A-Z]+)\d+"([^>]*?)(?:\/>|>)/g)) {
      const column = [...cell[1]!].reduce((index, letter) => index * 26 + letter.charCodeAt(0) - 64, 0) - 1
      codes[column] = formatOfStyle[Number(/ s="(\d+)"/.exec(cell[2]!)?.[1] ?? 0)]!
    }
    return codes
  })
  const widths: number[] = []
  for (const col of sheet.matchAll(/<col min="(\d+)" max="(\d+)" width="([\d.]+)"/g))
    for (let index = Number(col[1]); index <= Number(col[2]); index++) widths[index - 1] = Number(col[3])
  return {
    name: unescapeXml(/<sheet name="([^"]*)"/.exec(workbook)![1]!),
    rows,
    formats,
    frozenRows: /state="frozen"/.test(sheet) ? Number(/ySplit="(\d+)"/.exec(sheet)?.[1] ?? 0) : 0,
    autoFilter: /<autoFilter ref="([^"]+)"/.exec(sheet)?.[1] ?? null,
    widths,
  }
}
