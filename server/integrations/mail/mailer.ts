import nodemailer from 'nodemailer'
import type { Logger } from '#server/lib/logger.ts'

/** A mail; `attachments` are files it carries (a scheduled report's XLSX). */
export type MailMessage = { to: string; subject: string; text: string; html?: string; attachments?: { filename: string; content: Buffer; contentType: string }[] }

export type Mailer = {
  /** Sends one message; resolves when the SMTP server accepted it (or it was logged). */
  send(message: MailMessage): Promise<void>
}

export type MailerConfig = { SMTP_URL?: string | undefined; MAIL_FROM: string; APP_ENV: string }

/** Environments where a logged message may show its body (the reset link is how a developer sees it). */
const BODY_IN_LOG = new Set(['development', 'dev', 'local', 'test'])

/**
 * Mail over SMTP (nodemailer, SMTP_URL such as smtp://user:pass@host:587 or smtps://…). Without
 * SMTP_URL the message goes to the log instead; its body (with any link or token) only in
 * development and test, so that production logs never hold a reset token.
 */
export function createMailer(config: MailerConfig, logger: Logger): Mailer {
  if (!config.SMTP_URL) {
    return {
      async send(message) {
        const showBody = BODY_IN_LOG.has(config.APP_ENV)
        logger.info('mail not sent (no SMTP_URL)', { to: message.to, subject: message.subject, ...(showBody ? { text: message.text } : {}) })
      },
    }
  }
  const transport = nodemailer.createTransport(config.SMTP_URL)
  return {
    async send(message) {
      await transport.sendMail({
        from: config.MAIL_FROM,
        to: message.to,
        subject: message.subject,
        text: message.text,
        ...(message.html ? { html: message.html } : {}),
        ...(message.attachments ? { attachments: message.attachments } : {}),
      })
      logger.info('mail sent', { to: message.to, subject: message.subject })
    },
  }
}
