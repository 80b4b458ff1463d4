import type { Server } from 'node:http'
import type { Duplex } from 'node:stream'
import type { ServerType } from '@hono/node-server'

const TITLES: Record<number, string> = { 400: 'Bad Request', 408: 'Request Timeout', 413: 'Content Too Large', 431: 'Request Header Fields Too Large' }

/**
 * Requests Node refuses before any handler sees them (a request line or headers past
 * maxHeaderSize, malformed HTTP, a request that took too long) get an RFC 9457 problem like every
 * other error, instead of Node's bare status line.
 */
export function answerClientErrors(server: ServerType) {
  // @hono/node-server serves HTTP/1.1 here (node:http), whose server emits clientError.
  ;(server as Server).on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy()
      return
    }
    const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : error.code === 'HPE_CHUNK_EXTENSIONS_OVERFLOW' ? 413 : 400
    const detail =
      status === 431
        ? 'The request line and headers are too large (at most 16 KB); send fewer or shorter filters'
        : status === 408
          ? 'The request took too long to arrive'
          : 'The request is not valid HTTP'
    const code = status === 431 ? 'headers-too-large' : status === 408 ? 'request-timeout' : 'bad-http'
    const body = JSON.stringify({ type: `https://registrar.example/problems/${code}`, title: TITLES[status], status, detail, code })
    socket.end(
      `HTTP/1.1 ${status} ${TITLES[status]}\r\nContent-Type: application/problem+json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `X-Content-Type-Options: nosniff\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n${body}`,
    )
  })
}
