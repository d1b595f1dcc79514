import { connect, type Socket } from 'node:net'

/**
 * A minimal SMTP client for load generation: nodemailer costs several times more CPU per mail, and the
 * load generator shares the 2 cores with the server under test. It pipelines MAIL/RCPT/DATA (the server
 * advertises PIPELINING) and times each message from MAIL FROM to the final reply.
 */
export class SmtpClient {
  private buffer = ''
  private waiters: Array<(line: string) => void> = []
  private closed = false

  private constructor(private readonly socket: Socket) {
    socket.setNoDelay(true)
    socket.on('data', (chunk: Buffer) => {
      this.buffer += chunk.toString('latin1')
      let nl: number
      while ((nl = this.buffer.indexOf('\n')) >= 0) {
        const line = this.buffer.slice(0, nl).replace(/\r$/, '')
        this.buffer = this.buffer.slice(nl + 1)
        // Multi-line replies (`250-…`) end with the line whose fourth character is a space.
        if (line[3] === '-') continue
        this.waiters.shift()?.(line)
      }
    })
    const fail = () => {
      this.closed = true
      for (const w of this.waiters.splice(0)) w('000 connection closed')
    }
    socket.on('close', fail)
    socket.on('error', fail)
  }

  static async open(port: number, host = '127.0.0.1'): Promise<SmtpClient> {
    const socket = connect({ port, host })
    const client = new SmtpClient(socket)
    await new Promise<void>((ok, fail) => {
      socket.once('connect', ok)
      socket.once('error', fail)
    })
    const greeting = await client.reply()
    if (!greeting.startsWith('220')) throw new Error(`greeting: ${greeting}`)
    const ehlo = await client.command('EHLO bench.local')
    if (!ehlo.startsWith('250')) throw new Error(`EHLO: ${ehlo}`)
    return client
  }

  private reply(): Promise<string> {
    if (this.closed) return Promise.resolve('000 connection closed')
    return new Promise((ok) => this.waiters.push(ok))
  }

  private command(line: string): Promise<string> {
    const reply = this.reply()
    this.socket.write(`${line}\r\n`)
    return reply
  }

  /** Sends one message; resolves with the final reply line (e.g. `250 …`). `data` must be dot-stuffed with CRLF ends. */
  async send(from: string, to: string, data: Buffer): Promise<string> {
    const replies = [this.reply(), this.reply(), this.reply()]
    this.socket.write(`MAIL FROM:<${from}>\r\nRCPT TO:<${to}>\r\nDATA\r\n`)
    const [mail, rcpt, dataReply] = await Promise.all(replies)
    if (!mail!.startsWith('250') || !rcpt!.startsWith('250') || !dataReply!.startsWith('354')) {
      if (dataReply!.startsWith('354')) this.socket.write('.\r\n')
      return `${mail} | ${rcpt} | ${dataReply}`
    }
    const final = this.reply()
    this.socket.write(data)
    this.socket.write('\r\n.\r\n')
    return final
  }

  async quit(): Promise<void> {
    if (!this.closed) await this.command('QUIT')
    this.socket.destroy()
  }
}

/** Bodies by size: built once, so the load generator spends its CPU on sending, not on string building. */
const bodies = new Map<number, Buffer>()

/** The header block of a bench message, through its blank line. */
function headBlock(from: string, to: string, subject: string, contentType: string): Buffer {
  return Buffer.from(
    `From: Bench <${from}>\r\nTo: <${to}>\r\nSubject: ${subject}\r\n` +
      `Date: ${new Date().toUTCString()}\r\nMessage-ID: <${subject.replace(/\W/g, '')}@bench.local>\r\n` +
      `MIME-Version: 1.0\r\nContent-Type: ${contentType}\r\n\r\n`,
  )
}

/** Builds a plain-text message of about `bytes` bytes, CRLF line ends, no line starting with a dot. */
export function buildMessage(bytes: number, from: string, to: string, subject: string): Buffer {
  const head = headBlock(from, to, subject, 'text/plain; charset=utf-8')
  // Sized for a typical head, so every message of a run has the same body and about `bytes` bytes in all.
  const bodyBytes = Math.max(0, bytes - 230)
  let body = bodies.get(bodyBytes)
  if (!body) {
    const line = 'The quick brown fox jumps over the lazy dog, again and again and again.\r\n'
    let text = ''
    while (text.length + line.length <= bodyBytes) text += line
    body = Buffer.from(text + 'x'.repeat(bodyBytes - text.length))
    bodies.set(bodyBytes, body)
  }
  return Buffer.concat([head, body])
}

/** Alternative parts by size, built once like the plain bodies. */
const alternatives = new Map<number, Buffer>()

/**
 * Builds a message shaped like most mail a temporary address receives (a sign-up or verification mail): multipart/
 * alternative with a text part and an HTML part, both quoted-printable, of about `bytes` bytes in all. Every line is
 * well under 76 characters and no line starts with a dot.
 */
export function buildHtmlMessage(bytes: number, from: string, to: string, subject: string): Buffer {
  const head = headBlock(from, to, subject, 'multipart/alternative; boundary="bench-boundary"')
  let body = alternatives.get(bytes)
  if (!body) {
    const half = Math.max(0, (bytes - 600) / 2)
    const textLine = 'Your verification code is 482913. It expires in ten minutes, so use it soon.\r\n'
    const htmlLine = '<p style=3D"margin:0 0 12px;color:#333">Your code is <b>482913</b>, valid 10 min.</p>\r\n'
    const repeat = (line: string) => line.repeat(Math.max(1, Math.floor(half / line.length)))
    body = Buffer.from(
      '--bench-boundary\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n' +
        repeat(textLine) +
        '--bench-boundary\r\nContent-Type: text/html; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n' +
        '<html><body>\r\n' + repeat(htmlLine) + '</body></html>\r\n--bench-boundary--\r\n',
    )
    alternatives.set(bytes, body)
  }
  return Buffer.concat([head, body])
}
