import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { test } from 'node:test'
import { RouteTable } from '../../src/http/route-table.ts'
import { parseQuery } from '../../src/http/query.ts'
import { withService } from '../support/service.ts'

/**
 * The operator API commands of docs/operacion.md (and the status command of administracion.md):
 * each `curl` names a real route with that method, its query and its JSON body are what the route
 * accepts — so a guide cannot send a reader to a path, a parameter or a field that does not exist.
 */
interface GuideCommand {
  guide: string
  line: string
  method: string
  path: string
  query: string
  body: unknown
}

function commandsOf(guide: string): GuideCommand[] {
  const text = readFileSync(new URL(`../../docs/${guide}`, import.meta.url), 'utf8')
  const blocks = [...text.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1]!)
  // A command may continue on the next lines while a quoted body is open.
  const commands: string[] = []
  for (const block of blocks) {
    let pending = ''
    for (const line of block.split('\n')) {
      pending = pending === '' ? line : `${pending}\n${line}`
      if ((pending.match(/'/g) ?? []).length % 2 === 0) {
        if (/^curl /.test(pending)) commands.push(pending)
        pending = ''
      }
    }
  }
  return commands
    .filter((line) => /\$BASE|\/api\/v1\/operador\//.test(line))
    .map((line) => {
      const url = /"?(?:\$BASE|https?:\/\/localhost:8080\/api\/v1\/operador)([^\s"]*)"?/.exec(line)![1]!
      const [path, query = ''] = url.split('?')
      const data = /-d '([\s\S]*?)'/.exec(line)?.[1]
      return {
        guide,
        line,
        method: /-X (\w+)/.exec(line)?.[1] ?? 'GET',
        path: `/api/v1/operador${path}`,
        query,
        body: data === undefined ? undefined : JSON.parse(data),
      }
    })
}

const commands = [...commandsOf('operacion.md'), ...commandsOf('administracion.md')]

test('guide commands: the guides hold operator API commands to check', () => {
  assert.ok(commands.length >= 25, `found ${commands.length}`)
  assert.ok(commands.some((command) => command.path === '/api/v1/operador/estado'))
})

test('guide commands: every curl of the guides names a route with its method, and sends a query and a body the route accepts', () =>
  withService({}, async (service) => {
    const table = new RouteTable(service.routes)
    for (const command of commands) {
      const lookup = table.lookup(command.method, command.path, command.path)
      assert.ok(
        'match' in lookup,
        `${command.guide}: ${command.line}\n→ ${'refusal' in lookup ? lookup.refusal.message : ''}`,
      )
      const { validators } = lookup.match
      if (validators.params)
        assert.ok(validators.params.Check(lookup.match.params), `${command.guide}: path parameters of ${command.line}`)
      const query = parseQuery(command.query)
      if (validators.query) assert.ok(validators.query.Check(query), `${command.guide}: query of ${command.line}`)
      else
        assert.deepEqual(
          Object.keys(query),
          [],
          `${command.guide}: ${command.line} sends a query its route does not take`,
        )
      if (command.body !== undefined) {
        assert.ok(validators.body, `${command.guide}: ${command.line} sends a body its route does not take`)
        assert.ok(
          validators.body.Check(command.body),
          `${command.guide}: the body of ${command.line} is not what the route accepts`,
        )
      }
    }
  }))
