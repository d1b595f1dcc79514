import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

/** What the receiver does with one POST: answer with a status (and headers), or hold it without ever answering. */
export type Answer = { status: number; headers?: Record<string, string> } | 'hang'

/** A real HTTP receiver on loopback; each POST takes the next answer of `script`, then 200. */
export class Receiver {
  readonly paths: string[] = []
  readonly deliveryIds: string[] = []
  readonly bodies: string[] = []
  readonly headers: IncomingHttpHeaders[] = []
  /** TCP connections opened to this receiver. */
  connections = 0
  /** Bytes of body each answer carries (after its status). */
  answerBody = ''
  script: Answer[] = []
  private server: Server | null = null
  private held: ServerResponse[] = []
  port = 0

  async start(): Promise<this> {
    this.server = createServer((req: IncomingMessage, res: ServerResponse) => {
      const chunks: Buffer[] = []
      req.on('data', (chunk: Buffer) => chunks.push(chunk))
      req.on('end', () => {
        this.bodies.push(Buffer.concat(chunks).toString('utf8'))
        this.headers.push(req.headers)
        this.paths.push(req.url ?? '')
        this.deliveryIds.push(String(req.headers['tempbox-delivery']))
        const answer = this.script.shift() ?? { status: 200 }
        if (answer === 'hang') this.held.push(res)
        else res.writeHead(answer.status, answer.headers).end(this.answerBody)
      })
    })
    this.server.on('connection', () => this.connections++)
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve))
    this.port = (this.server.address() as AddressInfo).port
    return this
  }

  url(host = '127.0.0.1', path = '/hook'): string {
    return `http://${host}:${this.port}${path}`
  }

  async stop(): Promise<void> {
    for (const res of this.held) res.destroy()
    this.server?.closeAllConnections()
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()))
  }
}
