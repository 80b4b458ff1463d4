import { Strategy } from 'remix-auth/strategy'

/**
 * Our remix-auth strategy for a posted form: it reads the form (leaving the request body unread
 * for the action) and hands it to the verify function, which returns the sign-in outcome.
 */
export class FormStrategy<User> extends Strategy<User, { form: FormData; request: Request }> {
  name = 'form'

  async authenticate(request: Request): Promise<User> {
    const form = await request.clone().formData()
    return this.verify({ form, request })
  }
}
