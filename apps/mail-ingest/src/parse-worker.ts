/** Worker thread: parses raw messages so mailparser's CPU time stays off the SMTP thread. */
import { parseMessage, type ParsedMessage } from './parse-message.js'
import { asBuffer, serveRequests } from './worker-rpc.js'

serveRequests<Uint8Array, ParsedMessage>((raw) => parseMessage(asBuffer(raw)))
