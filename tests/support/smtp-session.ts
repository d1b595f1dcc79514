import { connect } from 'node:net'

/**
 * Opens a raw SMTP connection and collects every reply line the server sends until it closes. `localAddress` (another
 * loopback address, e.g. 127.0.0.77) makes the session come from a client IP of its own.
 */
export function rawSession(serverPort: number, localAddress?: string) {
  const socket = connect({ port: serverPort, host: '127.0.0.1', ...(localAddress ? { localAddress } : {}) })
  const lines: string[] = []
  let buffer = ''
  let read = 0
  socket.on('data', (chunk) => {
    buffer += chunk.toString('latin1')
    let nl: number
    while ((nl = buffer.indexOf('\r\n')) >= 0) {
      lines.push(buffer.slice(0, nl))
      buffer = buffer.slice(nl + 2)
    }
  })
  // Writes racing the server's close fail with EPIPE; the replies and the close are what the tests look at.
  socket.on('error', () => {})
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()))
  /** The next complete reply not read yet (the last line of a multi-line one). */
  const reply = async (): Promise<string> => {
    for (;;) {
      while (read < lines.length) {
        const line = lines[read++]!
        if (line[3] !== '-') return line
      }
      if (socket.destroyed) throw new Error(`closed before the next reply:\n${lines.join('\n')}`)
      // Both listeners go once either fires: a long session would otherwise pile up one 'close' listener per reply.
      await new Promise<void>((resolve) => {
        const done = () => {
          socket.off('data', done).off('close', done)
          resolve()
        }
        socket.on('data', done).on('close', done)
      })
    }
  }
  /** Sends one command line and answers the server's reply to it. */
  const command = async (line: string): Promise<string> => {
    socket.write(`${line}\r\n`)
    return reply()
  }
  return { socket, lines, closed, reply, command }
}
