import { randomBytes } from 'node:crypto'

/**
 * A random auth code for an object we create at a registry (a domain we register, a contact):
 * 96 random bits as letters and digits, plus a symbol, a digit and a lower-case letter, as registry
 * password policies ask.
 */
export const newAuthCode = () => `${randomBytes(12).toString('base64url')}#1a`
