import type { CliIo } from './io.ts'

/** The person pressed Ctrl+C while asked for a password. */
export class SecretCancelled extends Error {
  override readonly name = 'SecretCancelled'
}

/**
 * Reads a line typed on the terminal without showing it (a password). Backspace erases; Enter
 * ends the line; Ctrl+C rejects with SecretCancelled. The prompt goes to standard error.
 */
export function readSecret(prompt: string, io: Pick<CliIo, 'stdin' | 'stderr'>): Promise<string> {
  const input = io.stdin
  io.stderr.write(prompt)
  input.setRawMode?.(true)
  input.resume()
  input.setEncoding('utf8')
  return new Promise((resolve, reject) => {
    let typed = ''
    const end = () => {
      input.removeListener('data', onData)
      input.setRawMode?.(false)
      input.pause()
      io.stderr.write('\n')
    }
    const onData = (chunk: string | Buffer) => {
      for (const character of String(chunk)) {
        if (character === '\r' || character === '\n') {
          end()
          resolve(typed)
          return
        }
        if (character === '\u0003') {
          end()
          reject(new SecretCancelled('cancelado con Ctrl+C'))
          return
        }
        if (character === '\u007f' || character === '\b') typed = typed.slice(0, -1)
        else if (character >= ' ') typed += character
      }
    }
    input.on('data', onData)
  })
}
