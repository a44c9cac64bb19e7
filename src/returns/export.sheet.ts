import writeExcelFile, { type Row } from 'write-excel-file/node'

/**
 * One cell of the export: text, a number (amounts carry two decimals), or a local date-time
 * (`YYYY-MM-DD HH:mm:ss`, Honduras time) — a real date in Excel, ISO text in the CSV (which
 * Excel reads as a date in any language).
 */
export type ExportCell = { text: string } | { number: number; amount?: boolean } | { dateTime: string }

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

/** XLSX with one sheet: the header in bold and frozen, numbers as numbers (amounts as #,##0.00). */
export async function toXlsx(table: ExportTable, sheet: string): Promise<Buffer> {
  const header: Row = table.header.map((text) => ({ value: text, fontWeight: 'bold' }))
  const rows: Row[] = table.rows.map((row) =>
    row.map((cell) => {
      if ('text' in cell) return { value: cell.text, type: String }
      if ('dateTime' in cell) return cell.dateTime === '' ? null : { value: excelDate(cell.dateTime), type: Date, format: 'dd/mm/yyyy hh:mm' }
      return { value: cell.number, type: Number, ...(cell.amount ? { format: '#,##0.00' } : {}) }
    }),
  )
  return writeExcelFile([header, ...rows], { sheet, stickyRowsCount: 1, columns: table.header.map((text) => ({ width: Math.max(10, text.length + 2) })) }).toBuffer()
}

/** A local date-time as the Date whose UTC fields are it: Excel has no time zones, it shows the fields. */
function excelDate(text: string): Date {
  const [day, time = '00:00:00'] = text.split(/[ T]/)
  return new Date(`${day}T${time}Z`)
}

function csvText(cell: ExportCell): string {
  if ('text' in cell) return safeText(cell.text)
  if ('dateTime' in cell) return cell.dateTime
  return cell.amount ? cell.number.toFixed(2) : String(cell.number)
}

function safeText(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text
}

function quoted(field: string): string {
  return /[",\r\n]/.test(field) ? `"${field.replace(/"/g, '""')}"` : field
}
