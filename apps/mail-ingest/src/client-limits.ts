import { clientKey } from '@tempbox/ip'
import type { SMTPServerSession } from 'smtp-server'
import { smtpError } from './smtp-error.js'

/**
 * Fair share per client: simultaneous sessions per IPv4 address or IPv6 /64 (one network gets a whole /64), and
 * unknown recipients per session. Counters live only while sessions are open: no address is kept beyond them.
 */
export function createClientLimits(limits: { maxClientsPerIp: number; maxUnknownRecipients: number }) {
  const sessionsByClient = new Map<string, number>()
  /** Sessions counted at connect, by session id, with their client's key. */
  const counted = new Map<string, string>()
  const unknownRecipients = new Map<string, number>()

  return {
    /** onConnect: a client over its share is told so (421 4.7.0) and smtp-server closes the connection. */
    onConnect: (session: SMTPServerSession, callback: (error?: Error | null) => void): void => {
      const key = clientKey(session.remoteAddress)
      const open = sessionsByClient.get(key) ?? 0
      if (open >= limits.maxClientsPerIp) {
        callback(smtpError(421, `4.7.0 Too many connections from your network (at most ${limits.maxClientsPerIp}), try again later`))
        return
      }
      sessionsByClient.set(key, open + 1)
      counted.set(session.id, key)
      callback()
    },
    onClose: (session: SMTPServerSession): void => {
      unknownRecipients.delete(session.id)
      const key = counted.get(session.id)
      if (key === undefined) return
      counted.delete(session.id)
      const open = (sessionsByClient.get(key) ?? 1) - 1
      if (open > 0) sessionsByClient.set(key, open)
      else sessionsByClient.delete(key)
    },
    /**
     * Counts a recipient refused as unknown (or not ours): the error to answer with is `refusal`, or past the limit
     * 421 (smtp-server then closes the connection), so a client guessing addresses cannot go on.
     */
    unknownRecipient: (session: SMTPServerSession, refusal: Error): Error => {
      const count = (unknownRecipients.get(session.id) ?? 0) + 1
      unknownRecipients.set(session.id, count)
      if (count > limits.maxUnknownRecipients) return smtpError(421, '4.7.0 Too many unknown recipients, closing connection')
      return refusal
    },
    /** Open sessions counted per client (for tests and logs). */
    openSessions: (): number => counted.size,
  }
}

export type ClientLimits = ReturnType<typeof createClientLimits>
