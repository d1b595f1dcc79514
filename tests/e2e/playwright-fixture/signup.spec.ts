import { test, expect } from '@tempbox/playwright'

test('signs up with the code mailed to a fresh inbox', async ({ page, inbox }) => {
  await page.goto('/')
  await page.getByLabel('Email').fill(inbox.address)
  await page.getByRole('button', { name: 'Sign up' }).click()

  const { code } = await inbox.waitForCode({ timeoutMs: 30_000 })
  await page.getByLabel('Code').fill(code)
  await page.getByRole('button', { name: 'Confirm' }).click()
  await expect(page.getByRole('heading', { name: 'Confirmed' })).toBeVisible()
})

test('gets an inbox of its own, deleted after the test', async ({ inbox }) => {
  test.info().annotations.push({ type: 'inbox', description: inbox.address })
  expect(await inbox.messages()).toEqual([])
})
