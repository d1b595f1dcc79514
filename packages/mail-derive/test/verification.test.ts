import { describe, expect, it } from 'vitest'
import { extractVerification } from '../src/verification.js'
import { htmlToText } from '../src/html-text.js'

/** Sign-up mails of the shapes people wait for; `html` ones are read as the inbox reads them (text rendering). */
const WITH_CODES: { name: string; subject: string; text?: string; html?: string; codes: string[]; links?: string[] }[] = [
  {
    name: 'plain OTP sentence',
    subject: 'Your verification code',
    text: 'Hi,\n\nYour verification code is 482913. It expires in 10 minutes.\n\nIf you did not request this, ignore this email.\n\nAcme Inc., 1200 Market St, San Francisco, CA 94103',
    codes: ['482913'],
  },
  {
    name: 'code in the subject first',
    subject: '739204 is your Instagram code',
    text: "Someone tried to log in. If this was you, enter 739204. Don't share it.",
    codes: ['739204'],
  },
  {
    name: 'HTML code in its own big cell, with an order-ish footer',
    subject: 'Confirm your email',
    html: '<table><tr><td><p>Enter this code to finish signing up:</p></td></tr><tr><td style="font-size:32px"><b>58 20 14</b></td></tr></table><p>Code: <strong>A7K9Q2</strong></p><p>© 2025 Acme · Order #88812345 · Call +1 (415) 555-0132</p>',
    codes: ['A7K9Q2'],
  },
  {
    name: 'split code with a dash',
    subject: 'Sign in to Slack',
    text: 'Your confirmation code is below — enter it in your open browser window.\n\n394-812\n\nHaven’t requested this? Ignore it.',
    codes: ['394812'],
  },
  {
    name: 'German',
    subject: 'Ihr Bestätigungscode',
    text: 'Hallo,\nIhr Bestätigungscode lautet: 605118\nDer Code ist 15 Minuten gültig.',
    codes: ['605118'],
  },
  {
    name: 'Spanish',
    subject: 'Código de verificación',
    text: 'Tu código de verificación es 270431. Pedido 44120 enviado el 12/05/2024.',
    codes: ['270431'],
  },
  {
    name: 'Russian',
    subject: 'Код подтверждения',
    text: 'Ваш код подтверждения: 8841. Никому не сообщайте его.',
    codes: ['8841'],
  },
  {
    name: 'Chinese',
    subject: '验证码',
    text: '您的验证码是 563920，5分钟内有效。',
    codes: ['563920'],
  },
  {
    name: 'Japanese',
    subject: '認証コードのお知らせ',
    text: '認証コード：472981\nこのコードの有効期限は30分です。',
    codes: ['472981'],
  },
  {
    name: 'PIN',
    subject: 'Your PIN',
    text: 'Use PIN 9034 to unlock your account.',
    codes: ['9034'],
  },
]

const WITH_LINKS: { name: string; subject: string; text?: string; html?: string; links: { url: string; label: string }[] }[] = [
  {
    name: 'HTML button',
    subject: 'Please verify your email address',
    html: '<p>Thanks for signing up!</p><a href="https://app.example.com/email/verify?token=eyJhbGci&amp;id=42" style="background:#06f">Verify email address</a><p><a href="https://example.com/privacy">Privacy</a> · <a href="https://example.com/unsubscribe?u=1">Unsubscribe</a></p><img src="https://example.com/logo.png">',
    links: [{ url: 'https://app.example.com/email/verify?token=eyJhbGci&id=42', label: 'Verify email address' }],
  },
  {
    name: 'magic link in plain text',
    subject: 'Sign in to Linear',
    text: 'Click the link below to sign in:\nhttps://linear.app/auth/magic?token=abcdef123456\n\nThis link expires in 10 minutes.\nhttps://linear.app/help',
    links: [{ url: 'https://linear.app/auth/magic?token=abcdef123456', label: 'Click the link below to sign in' }],
  },
  {
    name: 'link with a generic path but a clear label',
    subject: 'Welcome',
    html: '<a href="https://u123.ct.sendgrid.net/ls/click?upn=xyz">Confirm my account</a> <a href="https://u123.ct.sendgrid.net/ls/click?upn=abc">Read our blog</a>',
    links: [{ url: 'https://u123.ct.sendgrid.net/ls/click?upn=xyz', label: 'Confirm my account' }],
  },
  {
    name: 'French confirmation',
    subject: 'Confirmez votre inscription',
    html: '<a href="https://exemple.fr/c/9f8e7d">Confirmer mon adresse</a>',
    links: [{ url: 'https://exemple.fr/c/9f8e7d', label: 'Confirmer mon adresse' }],
  },
]

/** Ordinary mail full of numbers that are not codes. */
const WITHOUT: { name: string; subject: string; text?: string; html?: string }[] = [
  {
    name: 'order confirmation',
    subject: 'Your order #112233 has shipped',
    text: 'Order number: 4455667\nOrder date: 2024-05-12\nTotal: $1249.99\nTracking number 9400111899223344556677\nQuestions? Call 1-800-555-0199 or +44 20 7946 0958.\nConfirmation number: 77889900',
  },
  {
    name: 'newsletter with dates and years',
    subject: 'Our 2025 roadmap',
    text: 'On March 2025 we shipped 1200 features. Since 2019 we grew to 4500 customers. Meet us on 12.05.2025 at 10:30, room 2204.',
  },
  {
    name: 'invoice HTML',
    subject: 'Invoice 2024-0012',
    html: '<table><tr><td>Invoice no.</td><td>100234</td></tr><tr><td>Amount</td><td>€ 5400</td></tr><tr><td>Customer ID</td><td>556677</td></tr><tr><td>Due</td><td>30/06/2024</td></tr></table><a href="https://billing.example.com/invoices/100234.pdf">Download PDF</a> <a href="https://example.com/unsubscribe">Unsubscribe</a>',
  },
  {
    name: 'personal note with a phone number',
    subject: 'Lunch?',
    text: 'Hey, lunch at 1230? Call me at 555 123 4567. My new PIN-pad arrived, 3 of them. Password manager is great btw.',
  },
  {
    name: 'shipping with a zip code',
    subject: 'Delivery update',
    text: 'Your parcel is on its way to 10115 Berlin. Reference: 8812 7766. Delivery window 14:00–16:00.',
  },
]

const contentOf = (m: { text?: string; html?: string }) => m.text ?? htmlToText(m.html ?? '')

describe('extractVerification', () => {
  for (const m of WITH_CODES) {
    it(`finds the code in: ${m.name}`, () => {
      expect(extractVerification(m.subject, contentOf(m), m.html ?? null).codes).toEqual(m.codes)
    })
  }
  for (const m of WITH_LINKS) {
    it(`finds the link in: ${m.name}`, () => {
      expect(extractVerification(m.subject, contentOf(m), m.html ?? null).links).toEqual(m.links)
    })
  }
  for (const m of WITHOUT) {
    it(`finds nothing in: ${m.name}`, () => {
      expect(extractVerification(m.subject, contentOf(m), m.html ?? null)).toEqual({ codes: [], codeDetails: [], links: [] })
    })
  }
})

describe('extractVerification edge cases', () => {
  it('reads a code after "sign in:"', () => {
    expect(extractVerification('Welcome', 'Use this one-time code to sign in: 804215', null).codes).toEqual(['804215'])
  })
  it('ignores a message with no text at all', () => {
    expect(extractVerification('', '', null)).toEqual({ codes: [], codeDetails: [], links: [] })
  })
})
