import { Type, type Static } from 'typebox'

const Verdict = Type.String({ description: 'As in Authentication-Results: pass, fail, softfail, neutral, none, temperror, permerror, policy…' })

export const MessageAuthStatus = Type.Union(
  [Type.Literal('checking'), Type.Literal('pass'), Type.Literal('fail'), Type.Literal('none'), Type.Literal('unknown')],
  {
    description:
      '`pass`: the From domain is proven (DMARC passes, or a DKIM signature of that domain verifies); `fail`: DMARC fails, the ' +
      'mail claims a domain it does not come from; `none`: nothing proves or disproves the sender; `unknown`: DNS did not ' +
      'answer (or the check was skipped under load); `checking`: the check runs after the message is stored.',
  },
)
export type MessageAuthStatus = Static<typeof MessageAuthStatus>

export const MessageAuthDkim = Type.Object({
  result: Verdict,
  domain: Type.String({ description: 'The signing domain (d=).' }),
  selector: Type.Union([Type.String(), Type.Null()]),
  aligned: Type.Boolean({ description: 'True when the signing domain matches the From domain (relaxed alignment).' }),
})
export type MessageAuthDkim = Static<typeof MessageAuthDkim>

export const MessageAuth = Type.Object({
  status: MessageAuthStatus,
  fromDomain: Type.Union([Type.String(), Type.Null()], { description: 'The domain of the From header, the one a reader sees.' }),
  spf: Type.Union([Type.Object({ result: Verdict, domain: Type.String({ description: 'MAIL FROM domain (or HELO).' }) }), Type.Null()]),
  dkim: Type.Array(MessageAuthDkim, { description: 'One entry per signature; empty when the message is not signed.' }),
  dmarc: Type.Union([
    Type.Object({ result: Verdict, domain: Type.String(), policy: Type.Union([Type.String(), Type.Null()], { description: 'p= of the record.' }) }),
    Type.Null(),
  ]),
  arc: Type.Union([Type.Object({ result: Verdict }), Type.Null()], { description: 'Only when the message carries an ARC chain.' }),
  authenticationResults: Type.Union([Type.String(), Type.Null()], { description: 'The Authentication-Results header value of the check.' }),
  checkedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
})
export type MessageAuth = Static<typeof MessageAuth>
