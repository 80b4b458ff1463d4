import { describe, expect, it } from 'vitest'
import { createLogger } from '#server/lib/logger.ts'
import { createMailer } from './mailer.ts'

const message = { to: 'a@b.example', subject: 'Reset', text: 'https://portal.test/reset?token=SECRET' }

describe('mailer without SMTP_URL', () => {
  it('logs the body (the reset link) in development', async () => {
    const lines: string[] = []
    await createMailer(
      { MAIL_FROM: 'x@y.example', APP_ENV: 'development' },
      createLogger('info', {}, (l) => lines.push(l)),
    ).send(message)
    expect(lines.join()).toContain('token=SECRET')
  })

  it('never logs the body in production', async () => {
    const lines: string[] = []
    await createMailer(
      { MAIL_FROM: 'x@y.example', APP_ENV: 'production' },
      createLogger('info', {}, (l) => lines.push(l)),
    ).send(message)
    expect(lines).toHaveLength(1)
    expect(lines.join()).not.toContain('SECRET')
    expect(lines.join()).toContain('a@b.example')
  })
})
