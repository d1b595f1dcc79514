import { afterEach, describe, expect, it } from 'vitest'
import type { App } from '../src/app.js'
import { buildTestApp } from './helper.js'
import { deliver, generate } from './email-fixtures.js'

let app: App
afterEach(async () => {
  await app?.close()
})

const subjects = async (address: string, q: string) =>
  (await app.inject({ method: 'GET', url: `/api/email/${address}?q=${encodeURIComponent(q)}` })).json<{ messages: { subject: string }[] }>().messages.map((m) => m.subject)

/** SQLite's LIKE folds ASCII only: "über" would not find "ÜBER". */
describe('case-insensitive matching beyond ASCII', () => {
  it('search finds Ü and É whatever their case, in subject, sender and text', async () => {
    app = await buildTestApp()
    const address = await generate(app)
    await deliver(app, address, { subject: 'ÜBERWEISUNG bestätigt', fromName: 'Bank', fromAddress: 'bank@example.test', text: 'Danke.' })
    await deliver(app, address, { subject: 'Votre commande', fromName: 'ÉLODIE Martin', fromAddress: 'elodie@example.test', text: 'Merci.' })
    await deliver(app, address, { subject: 'Rappel', fromName: 'Shop', fromAddress: 'shop@example.test', text: 'Votre CAFÉ est prêt.' })
    await deliver(app, address, { subject: 'Uberweisung ohne Umlaut', fromName: 'Other', fromAddress: 'other@example.test', text: 'Cafe.' })

    expect(await subjects(address, 'überweisung')).toEqual(['ÜBERWEISUNG bestätigt'])
    expect(await subjects(address, 'subject:Überweisung')).toEqual(['ÜBERWEISUNG bestätigt'])
    expect(await subjects(address, 'from:élodie')).toEqual(['Votre commande'])
    expect(await subjects(address, 'café')).toEqual(['Rappel'])
    expect(await subjects(address, '-café')).toEqual(['Uberweisung ohne Umlaut', 'Votre commande', 'ÜBERWEISUNG bestätigt'])
    // ASCII words match as before (LIKE), accents are not ignored.
    expect(await subjects(address, 'uberweisung')).toEqual(['Uberweisung ohne Umlaut'])
  })

  it('a wait filtered by subject= and from= with É and Ü answers with the message in other case', async () => {
    app = await buildTestApp()
    const address = await generate(app)
    await deliver(app, address, { subject: 'Ihre ÜBERWEISUNG', fromName: 'ÉCOLE', fromAddress: 'ecole@example.test' })
    const res = await app.inject({ method: 'GET', url: `/api/email/${address}/wait?since=0&timeout=5&subject=${encodeURIComponent('überweisung')}&from=${encodeURIComponent('école')}` })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toMatchObject({ timedOut: false, message: { subject: 'Ihre ÜBERWEISUNG' } })
  })
})
