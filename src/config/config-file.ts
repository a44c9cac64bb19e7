/**
 * The configuration file as text, and what to say when it cannot be read: an administrator edits
 * it by hand (Notepad, nano), so every problem is named with the line and what to do, in Spanish —
 * never the JSON parser's English.
 */

/**
 * The file's bytes as UTF-8 text (a UTF-8 byte-order mark is kept: parseJsonText skips it), or
 * what to say when it is UTF-16 (Notepad's «Unicode») or not UTF-8 at all (ANSI).
 */
export function decodeConfigText(file: string, bytes: Buffer): { text: string } | { problem: string } {
  const save =
    'Ábralo en el Bloc de notas (o su editor), Archivo → Guardar como, Codificación: UTF-8, y guárdelo con el mismo nombre.'
  if (
    (bytes[0] === 0xff && bytes[1] === 0xfe) ||
    (bytes[0] === 0xfe && bytes[1] === 0xff) ||
    bytes.subarray(0, 64).includes(0)
  ) {
    return {
      problem: `${file}: está guardado en UTF-16 (el Bloc de notas lo llama «Unicode»), y manifiesto lee UTF-8. ${save}`,
    }
  }
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes) }
  } catch {
    return {
      problem: `${file}: no está guardado en UTF-8 (¿ANSI o Windows-1252?: una ñ o una tilde lo delatan). ${save}`,
    }
  }
}

/** Why the file could not be read at all, with what to do. */
export function describeUnreadableFile(file: string, code: string): string {
  switch (code) {
    case 'ENOENT':
      return `${file}: el archivo de configuración no existe. Revise la ruta que dio con --config (o con la variable MANIFIESTO_CONFIG); para empezar uno, copie config.example.json con ese nombre.`
    case 'EACCES':
    case 'EPERM':
      return (
        `${file}: el usuario que ejecuta manifiesto no tiene permiso para leerlo (${code}). En Linux: sudo chown root:manifiesto ${file} && sudo chmod 640 ${file}, ` +
        'y ejecute los comandos como el usuario del servicio (sudo -u manifiesto …); en Windows, ejecútelos en un PowerShell de administrador.'
      )
    case 'EISDIR':
      return `${file}: es una carpeta; --config (o MANIFIESTO_CONFIG) debe nombrar el archivo, por ejemplo ${file.replace(/[\\/]+$/, '')}/config.json.`
    default:
      return `${file}: no se puede leer el archivo de configuración (${code}). Revise que exista y que el usuario del servicio pueda leerlo.`
  }
}

/** Where the JSON parser stopped, as line and column, and a Spanish reason for it. */
export function describeJsonError(file: string, text: string, error: Error): string {
  const offset = errorOffset(text, error.message)
  const before = text.slice(0, offset)
  const line = before.split('\n').length
  const column = offset - before.lastIndexOf('\n')
  const shown = text.split('\n')[line - 1]?.trim().slice(0, 80) ?? ''
  const where =
    offset >= text.length
      ? 'al final del archivo'
      : `en la línea ${line}, columna ${column}${shown === '' ? '' : ` («${shown}»)`}`
  return `${file}: no es JSON válido ${where}: ${reasonAt(text, offset)}. Corríjalo y compruébelo con manifiesto check.`
}

/** The offset the parser names (`at position N`, or `line L column C`), or the end of the text. */
function errorOffset(text: string, message: string): number {
  const position = /position (\d+)/.exec(message)
  if (position) return Math.min(Number(position[1]), text.length)
  const lineColumn = /line (\d+) column (\d+)/.exec(message)
  if (lineColumn) {
    const lines = text.split('\n').slice(0, Number(lineColumn[1]) - 1)
    return Math.min(lines.reduce((sum, line) => sum + line.length + 1, 0) + Number(lineColumn[2]) - 1, text.length)
  }
  return text.length
}

function reasonAt(text: string, offset: number): string {
  const character = text[offset]
  const previous = text.slice(0, offset).trimEnd().slice(-1)
  if (character === undefined)
    return 'el texto termina antes de cerrar todas las llaves { } y corchetes [ ] (¿falta una } al final?)'
  if ((character === '}' || character === ']') && previous === ',')
    return `sobra la coma antes de «${character}»: el último valor de un objeto o una lista no lleva coma`
  if (character === '/' || character === '#') return 'JSON no admite comentarios (// … o /* … */): quítelos'
  if (character === "'") return 'los textos y los nombres de las claves van entre comillas dobles " ", no simples'
  if (previous === '"' || previous === '}' || previous === ']' || /[0-9el]/.test(previous))
    return `falta una coma antes de «${character}» (entre dos valores)`
  if (/[A-Za-z_]/.test(character))
    return 'los nombres de las claves y los textos van entre comillas dobles, por ejemplo "port": 8080'
  return `sobra o falta algo antes de «${character}»`
}
