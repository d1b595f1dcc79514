import type { Socket } from 'node:net'

/**
 * Replies written in one turn of the event loop leave in one write. A client that pipelines MAIL FROM, RCPT TO and
 * DATA gets its three replies in one segment instead of three (three system calls here and three reads on its side);
 * each reply is still written as soon as it is known, and the socket is uncorked before the loop waits again, so no
 * reply waits for a later one. smtp-server writes every reply through `socket.write`, which is what is wrapped.
 */
export function coalesceReplies(socket: Socket): void {
  const write = socket.write
  let corked = false
  const uncork = () => {
    corked = false
    socket.uncork()
  }
  socket.write = function (this: Socket, ...args: Parameters<Socket['write']>) {
    if (!corked) {
      corked = true
      socket.cork()
      setImmediate(uncork)
    }
    return write.apply(this, args)
  } as Socket['write']
}
