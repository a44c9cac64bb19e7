import { request } from 'node:http'

export interface RawResponse {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: string
}

/**
 * A request through node:http, for what fetch cannot do: choose the local address (another
 * client IP on loopback), or declare a Content-Length without sending that many bytes.
 */
export function rawRequest(
  url: string,
  // A header given as a list is sent as that many header lines (X-Forwarded-For from two proxies).
  options: {
    method?: string
    headers?: Record<string, string | string[]>
    localAddress?: string
    body?: string
    path?: string
  } = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      // `path` is sent exactly as given (`/consola/../x`), where a URL would be normalized first.
      {
        method: options.method ?? 'GET',
        headers: options.headers,
        localAddress: options.localAddress,
        ...(options.path === undefined ? {} : { path: options.path }),
      },
      (res) => {
        let body = ''
        res.setEncoding('utf8')
        res.on('data', (chunk: string) => (body += chunk))
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }))
        res.on('error', reject)
      },
    )
    req.on('error', reject)
    if (options.body !== undefined) req.write(options.body)
    req.end()
  })
}
