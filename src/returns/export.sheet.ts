import writeExcelFile, { type Row } from 'write-excel-file/node'

/**
 * One cell of the export: text, a number (amounts carry two decimals), a local date-time
 * (`YYYY-MM-DD HH:mm:ss`, Honduras time) or a calendar date (`YYYY-MM-DD`) — a real date in
 * Excel, ISO text in the CSV (which Excel reads as a date in any language). '' leaves it empty.
 */
export type ExportCell =
  { text: string } | { number: number; amount?: boolean } | { dateTime: string } | { date: string }

/** The export as a table: a header and rows of cells. Both writers take the same table. */
export interface ExportTable {
  header: readonly string[]
  rows: ReadonlyArray<readonly ExportCell[]>
}

/**
 * Excel reads a CSV field starting so as a formula: such a text is written with a leading apostrophe
 * (no formula injection from a client's or product's name). XLSX cells are typed: text stays text.
 */
const FORMULA_START = /^[=+\-@\t\r]/

/**
 * CSV as Excel opens it well in Honduras: UTF-8 with a byte-order mark (so accents read right),
 * commas between fields (the region's list separator; decimals use a point), CRLF line ends,
 * fields quoted when they hold a comma, a quote or a line break (RFC 4180).
 */
export function toCsv(table: ExportTable): Buffer {
  const line = (fields: readonly string[]) => fields.map(quoted).join(',')
  const lines = [line(table.header), ...table.rows.map((row) => line(row.map(csvText)))]
  return Buffer.from(`\uFEFF${lines.join('\r\n')}\r\n`, 'utf8')
}

/**
 * XLSX with one sheet: the header in bold and frozen, numbers as numbers (amounts as #,##0.00),
 * dates as dates, each column as wide as its longest value as shown (MIN_WIDTH to MAX_WIDTH
 * characters).
 */
export async function toXlsx(table: ExportTable, sheet: string): Promise<Buffer> {
  const header: Row = table.header.map((text) => ({ value: text, fontWeight: 'bold' }))
  const rows: Row[] = table.rows.map((row) =>
    row.map((cell) => {
      if ('text' in cell) return { value: cell.text, type: String }
      if ('dateTime' in cell)
        return cell.dateTime === '' ? null : { value: excelDate(cell.dateTime), type: Date, format: 'dd/mm/yyyy hh:mm' }
      if ('date' in cell)
        return cell.date === '' ? null : { value: excelDate(cell.date), type: Date, format: 'dd/mm/yyyy' }
      return { value: cell.number, type: Number, ...(cell.amount ? { format: '#,##0.00' } : {}) }
    }),
  )
  return writeExcelFile([header, ...rows], {
    sheet,
    stickyRowsCount: 1,
    columns: columnWidths(table).map((width) => ({ width })),
  }).toBuffer()
}

const MIN_WIDTH = 8
const MAX_WIDTH = 60

/** Each column's width in characters: its header or its longest value as Excel shows it, whichever is longer, plus a margin. */
export function columnWidths(table: ExportTable): number[] {
  return table.header.map((text, column) => {
    let longest = text.length
    for (const row of table.rows) {
      const cell = row[column]
      if (cell !== undefined) longest = Math.max(longest, shownLength(cell))
    }
    return Math.min(MAX_WIDTH, Math.max(MIN_WIDTH, longest + 2))
  })
}

/** How many characters Excel shows for a cell: 22/11/2026 10:00, 22/11/2026, 1,234.56. */
function shownLength(cell: ExportCell): number {
  if ('text' in cell) return cell.text.length
  if ('dateTime' in cell) return cell.dateTime === '' ? 0 : 16
  if ('date' in cell) return cell.date === '' ? 0 : 10
  const digits = String(Math.trunc(Math.abs(cell.number))).length
  return (
    (cell.number < 0 ? 1 : 0) + (cell.amount ? digits + Math.floor((digits - 1) / 3) + 3 : String(cell.number).length)
  )
}

/** A local date-time as the Date whose UTC fields are it: Excel has no time zones, it shows the fields. */
function excelDate(text: string): Date {
  const [day, time = '00:00:00'] = text.split(/[ T]/)
  return new Date(`${day}T${time}Z`)
}

function csvText(cell: ExportCell): string {
  if ('text' in cell) return safeText(cell.text)
  if ('dateTime' in cell) return cell.dateTime
  if ('date' in cell) return cell.date
  return cell.amount ? cell.number.toFixed(2) : String(cell.number)
}

function safeText(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text
}

function quoted(field: string): string {
  return /[",\r\n]/.test(field) ? `"${field.replace(/"/g, '""')}"` : field
}
