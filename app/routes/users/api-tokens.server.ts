import { parseWithZod } from '@conform-to/zod/v4'
import type { TFunction } from 'i18next'
import { data, redirect, type RouterContextProvider } from 'react-router'
import { listAccountChoices } from '#app/lib/accounts.server.ts'
import { flashHeader } from '#app/lib/flash.server.ts'
import { getPlatform } from '#app/lib/platform.server.ts'
import { formErrorsOf, refusalErrors, refusalOf } from '#app/lib/refusal.server.ts'
import { requestUrl } from '#app/lib/request-url.ts'
import type { SessionUser } from '#app/lib/session.server.ts'
import { expandPermissions } from '#common/permissions.ts'
import { GRANTABLE_ROLES } from './roles.tsx'
import { serviceUserSchema, tokenSchema, type TokenActionData } from './api-tokens.tsx'
import { carryContext } from '#app/lib/context-param.ts'

const TOKEN_FIELDS = ['name', 'permissions', 'account_id', 'domain_tags', 'cidrs', 'expires_in_days'] as const

/** What a token may be given: what the signed-in user holds (staff: every role) and, for a service user, what it holds too. */
export function grantablePermissions(creator: SessionUser, owner?: { roles: string[]; abilities: string[] }): string[] {
  const holds = (perms: ReadonlySet<string>) => (perms.has('staff') ? new Set([...perms, ...GRANTABLE_ROLES]) : perms)
  const mine = holds(expandPermissions(creator.roles, creator.abilities))
  const theirs = owner ? holds(expandPermissions(owner.roles, owner.abilities)) : mine
  return [...mine].filter((p) => theirs.has(p)).sort()
}

/** Whose tokens a card shows: a service user's (`{ context, id }`), or null for the signed-in user's own (/profile/api_tokens). */
export type TokenOwner = { context: string; id: string } | null

/** The card's data: the owner's tokens and the accounts a token may be bound to. */
export async function loadTokens(request: Request, context: Readonly<RouterContextProvider>, user: SessionUser, owner: TokenOwner) {
  const platform = await getPlatform(request, context)
  const [tokens, accounts] = await Promise.all([
    owner ? platform.get('/groups/{context}/users/{id}/api_tokens', { path: owner }) : platform.get('/profile/api_tokens'),
    listAccountChoices(request, context, user),
  ])
  return { tokens: tokens.data, accounts, now: Date.now() }
}

/**
 * The card's two posts: make a token (the secret is answered in this response only, never in a
 * page that can be reloaded or cached) and revoke one (behind its confirmation).
 * Answers null for another intent.
 */
export async function tokenAction(request: Request, context: Readonly<RouterContextProvider>, t: TFunction, formData: FormData, owner: TokenOwner) {
  const intent = formData.get('intent')
  const platform = await getPlatform(request, context)
  if (intent === 'token-create') {
    const submission = parseWithZod(formData, { schema: tokenSchema(t) })
    if (submission.status !== 'success') return data<TokenActionData>({ intent: 'token-create', result: submission.reply() }, { status: 400 })
    const { intent: _intent, account_id, ...values } = submission.value
    try {
      const body = { ...values, account_id: account_id || null }
      const made = owner ? await platform.post('/groups/{context}/users/{id}/api_tokens', { path: owner, body }) : await platform.post('/profile/api_tokens', { body })
      return data<TokenActionData>({ intent: 'token-created', secret: made.secret, name: made.token.name }, { headers: { 'Cache-Control': 'no-store' } })
    } catch (error) {
      return data<TokenActionData>({ intent: 'token-create', result: submission.reply(refusalErrors(t, refusalOf(error, { screens: [404] }).problem, TOKEN_FIELDS)) }, { status: 400 })
    }
  }
  if (intent === 'token-revoke') {
    const id = String(formData.get('token_id') ?? '')
    try {
      await (owner ? platform.delete('/groups/{context}/users/{id}/api_tokens/{token_id}', { path: { ...owner, token_id: id } }) : platform.delete('/profile/api_tokens/{id}', { path: { id } }))
    } catch (error) {
      return data<TokenActionData>({ intent: 'token-revoke', formErrors: formErrorsOf(t, error, []).formErrors }, { status: 409 })
    }
    const url = requestUrl(request)
    return redirect(url.pathname + url.search, { headers: { 'Set-Cookie': flashHeader(request, { content: t('tokens:revoked'), color: 'success' }) } })
  }
  return null
}

/** Makes a service user in the account and goes to it; or the form's errors. */
export async function serviceUserAction(request: Request, context: Readonly<RouterContextProvider>, t: TFunction, formData: FormData, account: string, staffOffered: boolean) {
  const submission = parseWithZod(formData, { schema: serviceUserSchema(t, staffOffered) })
  if (submission.status !== 'success') return { result: submission.reply() }
  const { intent: _intent, ...values } = submission.value
  try {
    const made = await (await getPlatform(request, context)).post('/groups/{context}/service_users', { path: { context: account }, body: values })
    const url = requestUrl(request)
    return {
      redirect: redirect(carryContext(`/users/${made.id}`, url.searchParams), {
        headers: { 'Set-Cookie': flashHeader(request, { content: t('tokens:serviceUsers.created', { name: made.name }), color: 'success' }) },
      }),
    }
  } catch (error) {
    return { result: submission.reply(formErrorsOf(t, error, ['name', 'roles', 'abilities'])) }
  }
}
