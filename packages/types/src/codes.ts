import { Type, type Static } from 'typebox'
import { MessageAuthStatus } from './message-auth.js'

/** Longest `source` sentence a code carries, in characters. */
export const CODE_SOURCE_CHARS = 200

/** Why a code was taken, so a client (or a person) can judge it rather than trust it blindly. */
export const CodeDetail = Type.Object({
  code: Type.String({ description: 'The code as it should be typed: spaces and dashes inside it removed.' }),
  source: Type.String({
    maxLength: CODE_SOURCE_CHARS,
    description:
      `The sentence the code came from, trimmed (at most ${CODE_SOURCE_CHARS} characters). Empty for a code of a message ` +
      'derived before sources were kept.',
  }),
  reason: Type.Union([Type.Literal('labelled'), Type.Literal('digits_only'), Type.Literal('mixed')], {
    description:
      '`labelled`: a word naming a code (`label`) stands right before it, as in "code: 123456"; `digits_only`: digits near ' +
      'such a word; `mixed`: letters and digits near such a word.',
  }),
  label: Type.Union([Type.String(), Type.Null()], {
    description: 'The word that announced the code, in the message\'s wording ("code", "OTP", "PIN", "Bestätigungscode"…).',
  }),
  position: Type.Integer({
    minimum: 0,
    description: 'Character offset of the code in the message\'s text view (`content`); in the subject when `source` is the subject.',
  }),
})
export type CodeDetail = Static<typeof CodeDetail>

export const CodeResult = Type.Object({
  ...CodeDetail.properties,
  messageId: Type.String({ description: 'The message the code came from.' }),
  receivedAt: Type.String({ format: 'date-time' }),
  sender: Type.Object({
    verdict: MessageAuthStatus,
  }, { description: 'The sender check of the message (as `auth.status` of the message view); `unknown` when it was not checked.' }),
})
export type CodeResult = Static<typeof CodeResult>

/** Long poll answer of `GET /api/email/{address}/code`: 200 on timeout too, with `code: null`. */
export const CodeWaitResponse = Type.Object({
  code: Type.Union([CodeResult, Type.Null()], { description: 'The most likely code of the newest message after `since` that has one.' }),
  timedOut: Type.Boolean(),
})
export type CodeWaitResponse = Static<typeof CodeWaitResponse>

export const CodeWaitQuery = Type.Object({
  timeout: Type.Optional(Type.Integer({ minimum: 0, maximum: 60, default: 30, description: 'Seconds to wait (0–60).' })),
  since: Type.Optional(
    Type.String({
      pattern: '^[0-9]{1,15}$',
      description: 'Only codes of messages with a larger id than this; default: messages arriving after the call.',
    }),
  ),
})
export type CodeWaitQuery = Static<typeof CodeWaitQuery>
