import { invalidInput } from '../core/errors.ts'

/**
 * The rules every new password meets, wherever it is set (the console, the operator API, the
 * command line, one's own change): at least 10 characters, not the login name, and not a password
 * that is guessed first — one of the most common passwords (common-passwords.ts, 10,000 of them,
 * and the Spanish and Honduran ones of spanish-passwords.ts), such a password or the login name
 * with digits or signs around it (`Honduras2026!`, `p4ssw0rd`), one character or one group of
 * characters repeated (`aaaaaaaaaaaa`, `abcabcabcabc`), or a walk along the alphabet, the digits
 * or a row or column of the keyboard (`123456789012`, `abcdefghijkl`, `qwertyuiop`, `1qaz2wsx3edc`).
 *
 * The lists are read the first time a password is checked — never at import or at start, where
 * they would slow every start of the executable — and kept by this object, which `createApp`
 * and each command make (no module keeps them).
 */
export class PasswordRules {
  #common: Promise<ReadonlySet<string>> | null = null

  /** @throws DomainError INVALID_INPUT (422) saying why, in Spanish, and what to choose instead. */
  async require(usuario: string, password: string): Promise<void> {
    const refusal = refusalOf(usuario, password, await this.#commonPasswords())
    if (refusal !== null) throw invalidInput(`${refusal} ${ADVICE}`)
  }

  #commonPasswords(): Promise<ReadonlySet<string>> {
    this.#common ??= loadCommonPasswords()
    return this.#common
  }
}

/** What to choose instead, after every refusal. */
export const ADVICE =
  'Elija otra que nadie pueda adivinar: por ejemplo, tres o cuatro palabras que no tengan relación entre sí, separadas por espacios.'

export const MIN_PASSWORD_LENGTH = 10

/** Why `password` may not be `usuario`'s, or null when it may. `common` holds normalized passwords. */
export function refusalOf(usuario: string, password: string, common: ReadonlySet<string>): string | null {
  if ([...password].length < MIN_PASSWORD_LENGTH)
    return `La contraseña debe tener al menos ${MIN_PASSWORD_LENGTH} caracteres.`
  const text = normalized(password)
  const name = normalized(usuario)
  if (text.trim() === name) return 'La contraseña no puede ser igual al nombre de usuario.'
  const length = [...text].length
  const period = periodOf(text)
  if (period === 1) return 'La contraseña es un mismo carácter repetido, y eso se adivina en segundos.'
  if (length >= 3 * period)
    return 'La contraseña repite un mismo grupo de caracteres (como «abcabcabc»), y eso se adivina en segundos.'
  // The keyboard has ñ (`asdfghjklñ`); the lists are written without it.
  if (isWalk(text) || isWalk(password.toLowerCase()))
    return 'La contraseña es una secuencia seguida de letras, números o teclas vecinas (como «123456…», «abcdef…» o «qwerty…»), y eso se adivina en segundos.'
  if (common.has(text) || common.has(squeezed(text)))
    return 'La contraseña está en la lista de las contraseñas más usadas, que son las primeras que se prueban.'
  const core = coreOf(text)
  if (core === squeezed(name))
    return 'La contraseña es el nombre de usuario con números o signos añadidos, y eso es lo primero que se prueba.'
  if (common.has(core))
    return 'La contraseña es una contraseña o palabra muy usada con números, signos o cambios de letras (como «Honduras2026!» o «p4ssw0rd»), que son de las primeras que se prueban.'
  if (length >= 2 * period) {
    const block = [...text].slice(0, period).join('')
    if (isWalk(block) || common.has(block) || common.has(coreOf(block)))
      return 'La contraseña repite dos veces una secuencia o una contraseña muy usada, y eso se adivina en segundos.'
  }
  return null
}

async function loadCommonPasswords(): Promise<ReadonlySet<string>> {
  const [{ COMMON_PASSWORDS }, { SPANISH_PASSWORDS }] = await Promise.all([
    import('./common-passwords.ts'),
    import('./spanish-passwords.ts'),
  ])
  const words = new Set<string>()
  // The international list is words separated by spaces (none holds one); the Spanish one, a word per line.
  for (const word of COMMON_PASSWORDS.split(/\s+/)) if (word !== '') words.add(normalized(word))
  for (const line of SPANISH_PASSWORDS.split('\n')) if (line !== '') words.add(normalized(line))
  return words
}

/** Lower case, without accents (`Contraseña` → `contrasena`): how the lists are written. */
function normalized(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase()
}

/** Without spaces, dots, dashes and underscores between the words (`te amo` → `teamo`). */
function squeezed(text: string): string {
  return text.replace(/[\s._-]+/g, '')
}

const LEET: Record<string, string> = {
  '0': 'o',
  '1': 'i',
  '3': 'e',
  '4': 'a',
  '5': 's',
  '7': 't',
  '@': 'a',
  $: 's',
  '!': 'i',
}

/**
 * The word inside a password: without the digits and signs around it, without separators, and
 * with digits or signs that stand for letters read as those letters (`¡H0ndur4s-2026!` → `honduras`).
 */
function coreOf(text: string): string {
  const inner = squeezed(text).replace(/^[^\p{L}]+|[^\p{L}]+$/gu, '')
  return [...inner].map((char) => LEET[char] ?? char).join('')
}

/** The length of the shortest group of characters the text repeats (its length when it repeats none). */
function periodOf(text: string): number {
  const chars = [...text]
  for (let period = 1; period <= chars.length / 2; period++) {
    if (chars.every((char, index) => index < period || char === chars[index - period])) return period
  }
  return chars.length
}

/**
 * Lines along which a person types without thinking: the digits, the alphabet (with and without
 * ñ), the rows and the columns of a Spanish or US keyboard, the numeric keypad, the shifted
 * digits. Each wraps around (`…890` + `12`).
 */
const LINES = [
  '0123456789',
  'abcdefghijklmnopqrstuvwxyz',
  'abcdefghijklmnñopqrstuvwxyz',
  'qwertyuiopasdfghjklñzxcvbnm',
  'qwertyuiopasdfghjklzxcvbnm',
  '1qaz2wsx3edc4rfv5tgb6yhn7ujm8ik9ol0p',
  'qazwsxedcrfvtgbyhnujmikolp',
  '789456123',
  '741852963',
  '!"#$%&/()=',
  '!@#$%^&*()',
]

/** Every character is a neighbour, on one of the lines, of the one before it (either way). */
function isWalk(text: string): boolean {
  const chars = [...text]
  return LINES.some((line) => {
    const places = chars.map((char) => line.indexOf(char))
    if (places.some((place) => place < 0)) return false
    const size = [...line].length
    return places.every((place, index) => {
      if (index === 0) return true
      const step = Math.abs(place - places[index - 1]!)
      return step === 1 || step === size - 1
    })
  })
}
