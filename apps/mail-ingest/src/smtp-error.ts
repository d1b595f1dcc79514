/** An Error smtp-server turns into the reply `<code> <message>`; the message starts with the enhanced status code. */
export function smtpError(responseCode: number, message: string): Error & { responseCode: number } {
  return Object.assign(new Error(message), { responseCode })
}
