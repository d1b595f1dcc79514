import type { Socket } from 'node:net'
import { isPrivateIp, parseIp, type AddressList } from '@tempbox/ip'
import type { SMTPServer } from 'smtp-server'
import { opensProxyHeader, parseProxyHeader } from './header.js'

export interface ProxyProtocolOptions {
  /** Peers that must open with a PROXY header; everyone else speaks SMTP directly and may not send one. */
  trusted: AddressList
  /** A trusted peer's header must be complete within this long after it connects. */
  headerTimeoutMs: number
  /** Sockets waiting for their header at once (smtp-server's maxClients; more are dropped unanswered). */
  maxPending: number
  /** Our host name, as in every reply. */
  name: string
}

export type ProxyRefusal = 'proxy_untrusted' | 'proxy_header'

/** How long a refused socket may stay open for its 421 to be delivered before it is destroyed. */
const REFUSAL_LINGER_MS = 1_000
/** Refusals are logged at most once a minute (with the number left out), however many a flood brings. */
const LOG_EVERY_MS = 60_000

/**
 * Puts PROXY protocol reading in front of smtp-server: a trusted balancer's connection becomes an SMTP session only
 * after its header, and that session's remoteAddress (every per-IP limit, the sender check) is the client the header
 * names. Replaces smtp-server's own connection listener; its `useProxy` is not used (see README "Behind a balancer").
 */
export function acceptProxyProtocol(server: SMTPServer, options: ProxyProtocolOptions, onRefused: (reason: ProxyRefusal) => void) {
  const listeners = server.server.listeners('connection')
  if (listeners.length !== 1) throw new Error('smtp-server\'s connection listener was not found: the PROXY protocol cannot be read')
  server.server.removeListener('connection', listeners[0] as (socket: Socket) => void)
  const pending = new Set<Socket>()
  const log = throttledLog()

  const refuse = (socket: Socket, reason: ProxyRefusal, reply: string, logLine: string) => {
    onRefused(reason)
    log(reason, logLine)
    socket.on('error', () => {})
    socket.end(`421 ${reply}\r\n`)
    setTimeout(() => socket.destroy(), REFUSAL_LINGER_MS).unref()
  }

  const readHeader = (socket: Socket) => {
    const proxy = socket.remoteAddress ?? ''
    let buffered: Buffer = Buffer.alloc(0)
    const finish = () => {
      clearTimeout(timer)
      pending.delete(socket)
      socket.off('readable', onReadable).off('end', onGone).off('close', onGone).off('error', onGone)
    }
    const fail = (reply: string, why: string) => {
      finish()
      refuse(socket, 'proxy_header', reply, `[smtp] refused a connection from the trusted proxy ${proxy}: ${why}`)
    }
    const onReadable = () => {
      let chunk: Buffer | null
      while ((chunk = socket.read() as Buffer | null) !== null) {
        // Never more than one chunk past the longest header: the parser answers before that.
        buffered = buffered.length === 0 ? chunk : Buffer.concat([buffered, chunk])
        const result = parseProxyHeader(buffered)
        if (result.kind === 'incomplete') continue
        if (result.kind === 'invalid') return fail(`4.5.2 ${options.name} Invalid PROXY protocol header, closing connection`, result.reason)
        finish()
        if (buffered.length > result.length) socket.unshift(buffered.subarray(result.length))
        server.connect(socket, result.ends ?? {})
        return
      }
    }
    // A balancer's health check connects and leaves without a header: nothing to answer or log.
    const onGone = () => {
      finish()
      socket.destroy()
    }
    const timer = setTimeout(() => {
      fail(`4.4.2 ${options.name} No PROXY protocol header in time, closing connection`, `no complete header within ${options.headerTimeoutMs} ms`)
    }, options.headerTimeoutMs)
    pending.add(socket)
    socket.on('readable', onReadable).on('end', onGone).on('close', onGone).on('error', onGone)
  }

  /**
   * Anyone else speaks SMTP directly. A PROXY header from them would name an address of their choosing: their first
   * bytes are looked at (not consumed) and such a header is answered 421 before smtp-server sees it.
   */
  const watchUntrusted = (socket: Socket) => {
    socket.once('data', (first: Buffer) => {
      if (!opensProxyHeader(first)) return
      const peer = parseIp(socket.remoteAddress ?? '')
      // A misconfigured balancer sits on a private network; a public address is a person's and is not logged.
      const who = peer && isPrivateIp(peer) ? peer.ip : 'a public address'
      refuse(socket, 'proxy_untrusted', `4.7.0 ${options.name} PROXY protocol header not accepted: you are not a trusted proxy, closing connection`,
        `[smtp] refused a PROXY protocol header from ${who}, which is not in SMTP_TRUSTED_PROXIES`)
    })
  }

  server.server.on('connection', (socket: Socket) => {
    // No address: the peer is gone already (a balancer's health check connects and resets at once).
    if (socket.remoteAddress === undefined) {
      socket.destroy()
      return
    }
    if (!options.trusted.includes(socket.remoteAddress)) {
      // Listening before smtp-server pipes the socket into its parser: this sees the first bytes first.
      watchUntrusted(socket)
      server.connect(socket)
      return
    }
    if (pending.size >= options.maxPending) {
      socket.destroy()
      return
    }
    readHeader(socket)
  })

  return {
    /** Closes the sockets still waiting for a header (they have no session to finish). */
    close: () => {
      for (const socket of pending) socket.destroy()
    },
  }
}

function throttledLog() {
  const last = new Map<ProxyRefusal, { at: number; skipped: number }>()
  return (reason: ProxyRefusal, line: string) => {
    const now = Date.now()
    const entry = last.get(reason)
    if (entry && now - entry.at < LOG_EVERY_MS) {
      entry.skipped++
      return
    }
    const skipped = entry?.skipped ?? 0
    last.set(reason, { at: now, skipped: 0 })
    console.error(skipped > 0 ? `${line} (and ${skipped} more like it in the last minute)` : line)
  }
}
