import { test, expect } from '@tempbox/playwright'

test('signs up with the code mailed to a fresh inbox', async ({ page, inbox }) => {
  test.info().annotations.push({ type: 'inbox', description: inbox.address })
  await page.goto(process.env.SIGNUP_URL!)
  await page.getByLabel('Email').fill(inbox.address)
  await page.getByRole('button', { name: 'Sign up' }).click()
  await expect(page.getByText(`We sent a code to ${inbox.address}`)).toBeVisible()

  const { code, source } = await inbox.waitForCode({ timeoutMs: 30_000 })
  expect(source).toContain(code)
  await page.getByLabel('Code').fill(code)
  await page.getByRole('button', { name: 'Confirm' }).click()
  await expect(page.getByRole('heading', { name: 'Confirmed' })).toBeVisible()
})

test('gets an inbox of its own', async ({ inbox }) => {
  test.info().annotations.push({ type: 'inbox', description: inbox.address })
  expect(await inbox.messages()).toEqual([])
})
