import { test as setup } from '@playwright/test'
import { DEMO_USERS, saveSignedInState, signedIn } from './support.ts'

// Each demo user signs in once per run, through the real /login form as a person does, and the
// browser's state is saved for the specs that are not about signing in (support.ts signedIn()).
for (const email of DEMO_USERS) {
  setup(`${email} signs in`, async ({ browser }) => {
    await saveSignedInState(browser, { email }, signedIn(email))
  })
}
