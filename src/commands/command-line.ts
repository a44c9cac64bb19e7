import { parseArgs } from 'node:util'
import { ARGUMENTS, COMMANDS, type CommandName } from './help.ts'

/** The options any command may carry, and what each one's value is called in the usage. */
const OPTIONS = {
  config: {
    type: 'string',
    value: 'ARCHIVO',
    example: '(la ruta del archivo de configuración, por ejemplo /etc/manifiesto/config.json)',
  },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
  rol: { type: 'string', value: 'ROL', example: '(admin, supervisor u operador)' },
  nombre: { type: 'string', value: '"NOMBRE Y APELLIDO"', example: '(el nombre que se muestra, entre comillas)' },
  almacenes: { type: 'string', value: 'OAC,OAS', example: '(los códigos separados por comas, o todos)' },
  'contrasena-stdin': { type: 'boolean' },
  propietario: { type: 'string', value: 'USUARIO', example: '(el usuario del servicio, por ejemplo manifiesto)' },
} as const

type OptionName = keyof typeof OPTIONS
type StringOption = { [K in OptionName]: (typeof OPTIONS)[K]['type'] extends 'string' ? K : never }[OptionName]
type BooleanOption = Exclude<OptionName, StringOption>
export type Options = { [K in StringOption]?: string } & { [K in BooleanOption]?: boolean }

export type CommandLine =
  | { kind: 'run'; command: CommandName; rest: string[]; options: Options }
  | { kind: 'help'; command: CommandName | null; rest: string[]; options: Options }
  | { kind: 'problem'; message: string }

/**
 * Reads the command line. Every problem is one Spanish sentence that names the option or the
 * argument and says what to write (Node's own parser answers in English, so options are read
 * leniently here and checked one by one).
 */
export function parseCommandLine(argv: string[]): CommandLine {
  const { tokens } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: false,
    tokens: true,
    options: Object.fromEntries(
      Object.entries(OPTIONS).map(([name, option]) => [
        name,
        { type: option.type, ...('short' in option ? { short: option.short } : {}) },
      ]),
    ),
  })
  const options: Record<string, string | boolean> = {}
  const positionals: string[] = []
  for (const token of tokens) {
    if (token.kind === 'positional') positionals.push(token.value)
    if (token.kind !== 'option') continue
    const option = (OPTIONS as Record<string, (typeof OPTIONS)[OptionName]>)[token.name]
    if (option === undefined)
      return {
        kind: 'problem',
        message: `Opción desconocida: «${token.rawName}». Las opciones de cada comando están en la ayuda de abajo.`,
      }
    if (option.type === 'boolean') {
      if (token.value !== undefined)
        return { kind: 'problem', message: `La opción ${token.rawName} no lleva valor: escriba solo ${token.rawName}.` }
      options[token.name] = true
      continue
    }
    if (token.value === undefined || token.value === '' || (!token.inlineValue && token.value.startsWith('-'))) {
      const written = 'value' in option ? `--${token.name} ${option.value}` : `--${token.name}`
      return {
        kind: 'problem',
        message:
          `Falta el valor de --${token.name}: escriba ${written} ${'example' in option ? option.example : ''}.`.replace(
            ' .',
            '.',
          ),
      }
    }
    options[token.name] = token.value
  }
  const typed = options as Options
  const [first, ...rest] = positionals
  const command = first ?? (typed.version ? 'version' : 'serve')
  if (first === 'help' || first === 'ayuda') return { kind: 'help', command: null, rest, options: typed }
  if (!isCommand(command))
    return { kind: 'problem', message: `Comando desconocido: «${command}». Los comandos son: ${COMMANDS.join(', ')}.` }
  if (typed.help) return { kind: 'help', command: first === undefined ? null : command, rest, options: typed }
  const problem = describeArgumentProblem(command, rest)
  if (problem !== null) return { kind: 'problem', message: problem }
  return { kind: 'run', command, rest, options: typed }
}

function isCommand(name: string): name is CommandName {
  return (COMMANDS as readonly string[]).includes(name)
}

/** One Spanish line naming a missing or extra argument, or null. */
function describeArgumentProblem(command: CommandName, rest: readonly string[]): string | null {
  const spec = ARGUMENTS[command]
  const form = `manifiesto ${[command, ...spec.required, ...spec.optional.map((name) => `[${name}]`)].join(' ')}`
  const missing = spec.required[rest.length]
  if (missing !== undefined)
    return `Falta el argumento ${missing}: ${form}${spec.example === undefined ? '' : ` ${spec.example}`}.`
  const extra = rest[spec.required.length + spec.optional.length]
  if (extra !== undefined) return `Sobra el argumento «${extra}»: ${form}.`
  return null
}
