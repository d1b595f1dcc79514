/** The polled inbox: 50 sign-up style mails written straight to the api's database. */
import { insertMessage, type Db } from '@tempbox/db'

/** A sign-up style mail: a short text part and an HTML part, as most messages in a throwaway inbox are. */
function message(i: number) {
  const text = `Hi there,\n\nYour verification code is ${100000 + i}. It expires in 10 minutes.\n\nOr confirm with this link: https://app.example.com/verify?token=${i}abcdef\n\nIf you didn't sign up, ignore this email.\n\n— The Example team, 1 Market St, San Francisco`
  return {
    subject: `Confirm your account (${i})`,
    text,
    html: `<p>Hi there,</p><p>Your verification code is <b>${100000 + i}</b>.</p><p><a href="https://app.example.com/verify?token=${i}abcdef">Confirm</a></p>`,
  }
}

export async function fillInbox(apiUrl: string, db: Db): Promise<string> {
  const res = await fetch(`${apiUrl}/api/email/generate`, { method: 'POST' })
  const { email: address } = (await res.json()) as { email: string }
  const inbox = await db.selectFrom('inbox').select('id').where('address', '=', address).executeTakeFirstOrThrow()
  const now = Date.now()
  for (let i = 0; i < 50; i++) {
    const m = message(i)
    const raw = Buffer.from(`From: Example <hello@example.com>\r\nSubject: ${m.subject}\r\n\r\n${m.text}\r\n`)
    await insertMessage(db, [inbox.id], {
      content: { recipients: JSON.stringify([{ name: '', address }]), headers: '[]', text: m.text, html: m.html, raw },
      listing: {
        from_name: 'Example',
        from_address: 'hello@example.com',
        subject: m.subject,
        sent_at: now - (50 - i) * 60_000,
        received_at: now - (50 - i) * 60_000,
        size: raw.length,
      },
    })
  }
  return address
}
