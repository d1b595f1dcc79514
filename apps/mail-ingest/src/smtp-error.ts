/** An Error smtp-server turns into the reply `<code> <message>`; the message starts with the enhanced status code. */
export type SmtpReplyError = Error & { responseCode: number }

export function smtpError(responseCode: number, message: string): SmtpReplyError {
  return Object.assign(new Error(message), { responseCode })
}
