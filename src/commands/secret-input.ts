/**
 * Reads a line typed on the terminal without showing it (a password). Backspace erases; Ctrl+C
 * aborts the command; Enter ends the line. The prompt goes to standard error.
 */
export function readSecret(prompt: string): Promise<string> {
  const input = process.stdin
  process.stderr.write(prompt)
  input.setRawMode(true)
  input.resume()
  input.setEncoding('utf8')
  return new Promise((resolve) => {
    let typed = ''
    const onData = (chunk: string) => {
      for (const character of chunk) {
        if (character === '\r' || character === '\n') {
          input.removeListener('data', onData)
          input.setRawMode(false)
          input.pause()
          process.stderr.write('\n')
          resolve(typed)
          return
        }
        if (character === '\u0003') {
          process.stderr.write('\n')
          process.exit(130)
        }
        if (character === '\u007f' || character === '\b') typed = typed.slice(0, -1)
        else if (character >= ' ') typed += character
      }
    }
    input.on('data', onData)
  })
}
