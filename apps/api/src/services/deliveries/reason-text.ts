import type { DeliveryReason } from '@tempbox/types'

/** The API's English sentence for each reason code; the web app says the same in each language (packages/i18n). */
const REASON_TEXT: Record<DeliveryReason, string> = {
  accepted: 'The message was accepted and stored.',
  mailbox_full: 'This inbox is full: it holds as many messages or bytes as it may.',
  too_big: 'The message is larger than this server accepts.',
  storage_full: "The server's storage is full for now.",
  fault_greylist: 'The +greylist tag asked for this: the first tries are put off, as greylisting does, and a later retry is accepted.',
  fault_tempfail: 'The +tempfail tag asked for this: the first tries fail for now, and a later retry is accepted.',
  fault_reject: 'The +reject tag asked for this: the recipient is refused.',
  fault_disconnect: 'The +disconnect tag asked for this: the connection was closed before any reply, and nothing was stored.',
  fault_full: 'The +full tag asked for this: the answer is the one a full mailbox gives.',
  fault_slow: 'The +slow tag asked for this: the reply was sent late on purpose.',
  sender_domain_unknown: "The sender's domain does not exist or receives no mail.",
  too_many_recipients: 'The message named too many recipients at once.',
  guess_limited: 'The sending server tried too many addresses that do not exist and is paused for a while.',
  store_failed: 'The message could not be stored; the sender should try again.',
  busy: 'The server was too busy; the sender should try again.',
}

/** A code added later than this table still gets a sentence: the SMTP reply it stands for. */
export function reasonText(reason: string, replyCode: number, enhancedStatus: string): string {
  return (REASON_TEXT as Record<string, string>)[reason] ?? `The server answered ${replyCode} ${enhancedStatus} (${reason}).`
}
