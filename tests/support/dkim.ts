import { generateKeyPairSync } from 'node:crypto'
import { dkimSign } from 'mailauth'

/** A domain that signs its mail: a key made for the test and the DKIM record to publish in a fixture zone. */
export interface SigningDomain {
  domain: string
  selector: string
  privateKey: string
  /** `<selector>._domainkey.<domain>` → its TXT record. */
  zone: Record<string, { TXT: string[][] }>
}

export function signingDomain(domain: string, selector = 'test'): SigningDomain {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 })
  const p = publicKey.export({ type: 'spki', format: 'der' }).toString('base64')
  return {
    domain,
    selector,
    privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    zone: { [`${selector}._domainkey.${domain}`]: { TXT: [[`v=DKIM1; k=rsa; p=${p}`]] } },
  }
}

/** The message with a DKIM-Signature of `signer` prepended. */
export async function signMail(raw: string, signer: SigningDomain): Promise<string> {
  const key = { signingDomain: signer.domain, selector: signer.selector, privateKey: signer.privateKey }
  // mailauth signs only what is listed in signatureData (its types mark the top-level fields required, and ignore them).
  // signTime: without one, mailauth reads the clock for t= twice, for what it signs and for the header it writes; an RSA
  // signature apart, across a half second, they differ and the signature fails (0.6 % of signatures, more under load).
  const { signatures, errors } = await dkimSign(raw, { ...key, signTime: new Date(), signatureData: [key] })
  if (errors.length > 0) throw new Error(`signing failed: ${JSON.stringify(errors)}`)
  if (!signatures) throw new Error('signing produced no signature')
  return signatures + raw
}

/** A DMARC record asking receivers to reject mail from `domain` that fails. */
export function dmarcReject(domain: string): Record<string, { TXT: string[][] }> {
  return { [`_dmarc.${domain}`]: { TXT: [['v=DMARC1; p=reject']] } }
}

/** A plain message as a sender would write it (CRLF line ends). */
export function plainMail(from: string, to: string, subject: string, body = 'Hello from the test.'): string {
  return [`From: ${from}`, `To: ${to}`, `Subject: ${subject}`, 'Date: Tue, 24 Nov 2026 08:00:00 +0000', `Message-ID: <${subject.replace(/\W/g, '')}@test>`, 'MIME-Version: 1.0', 'Content-Type: text/plain; charset=utf-8', '', body, ''].join('\r\n')
}
