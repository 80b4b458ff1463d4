import { expect, test, ACME_ADMIN, hydrated, newDomains, signedIn, unique } from './support.ts'

// Issue 16 item 4: a nameserver change on a registry-locked domain said "changed by someone else
// since you opened it". It says the registry lock is on and what to do, and changes nothing.
// Issue 28: the lock's fee is asked once with the engine's price: Cancel locks and charges nothing.
test.use({ storageState: signedIn(ACME_ADMIN) })

test('a nameserver change on a registry-locked domain says the lock is on and to unlock first', async ({ page }) => {
  const [domain] = await newDomains(ACME_ADMIN, [`e2e-lock-${unique()}.com`])
  await page.goto(`/domains/${domain!.id}`)
  await expect(page.getByTestId('domain-name')).toHaveText(domain!.name)
  await hydrated(page)
  await page.getByTestId('toggle-lock').click()
  const question = page.getByTestId('charge-question')
  await expect(question).toContainText(`Turn the registry lock on for ${domain!.name}: `)
  const price = (await question.textContent())!.split(': ').at(-1)!
  await page.getByTestId('registry-lock-cancel').click()
  await expect(page.getByTestId('confirm-registry-lock')).toHaveCount(0)
  await expect(page.getByTestId('domain-lock')).toContainText('No')
  await page.getByTestId('toggle-lock').click()
  await page.getByTestId('registry-lock-confirm').click()
  await expect(page.getByText('Registry lock is on.')).toBeVisible()
  await expect(page.getByTestId('domain-lock')).toContainText('Yes')

  await hydrated(page)
  await page.getByTestId('edit-nameservers').click()
  const form = page.getByTestId('nameservers-form')
  await form.getByRole('textbox').fill('ns1.locked-move.example\nns2.locked-move.example')
  await form.getByRole('button', { name: 'Change nameservers' }).click()
  const error = page.getByTestId('action-error')
  await expect(error).toContainText('The registry lock is on for this domain')
  await expect(error).toContainText('Turn the registry lock off first')
  await expect(error).not.toContainText('someone else')
  // No "Reload": nothing was stale.
  await expect(error.getByRole('link')).toHaveCount(0)
  await expect(page.getByTestId('domain-nameservers').filter({ hasText: 'locked-move' })).toHaveCount(0)

  // The fee confirmed is the one charged, once.
  await page.goto(`/domains/${domain!.id}/transactions`)
  const fee = page.getByRole('row').filter({ hasText: 'Registry lock' })
  await expect(fee).toHaveCount(1)
  if (price !== 'no charge') await expect(fee).toContainText(price)
})
