// node bench/bare-http.mjs: the least a Node service does to take a batch over HTTP, and nothing
// else. node:http, the body hashed (sha256) and copied into one buffer as it arrives, then a short
// JSON answer. Prints its port on stdout once it listens.
// Why: the bare floor (../shared/perf/floor.mjs) reads the batch from a file; the service receives
// it over HTTP. This is what that transfer alone costs on the machine the bench runs on.
import { createHash } from 'node:crypto'
import { createServer } from 'node:http'

const server = createServer((request, response) => {
  const hash = createHash('sha256')
  const body = Buffer.allocUnsafeSlow(Number(request.headers['content-length'] ?? 0))
  let size = 0
  request.on('data', (chunk) => {
    hash.update(chunk)
    size += chunk.copy(body, size)
  })
  request.on('end', () => {
    const answer = JSON.stringify({ bytes: size, sha256: hash.digest('hex') })
    response.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(answer) })
    response.end(answer)
  })
})
server.listen(0, '127.0.0.1', () => process.stdout.write(`${server.address().port}\n`))
