export function meta() {
  return [{ title: 'Login - Portal' }, { name: 'description', content: 'Sign in to the registrar portal' }]
}

export default function Login() {
  return (
    <main className="mx-auto max-w-sm p-8">
      <h1 className="mb-4 text-2xl font-semibold">Sign in</h1>
      <form method="post" className="space-y-3">
        <label className="block">
          <span>Email</span>
          <input name="username" type="email" autoComplete="username" className="block w-full rounded border px-2 py-1" />
        </label>
        <label className="block">
          <span>Password</span>
          <input name="password" type="password" autoComplete="current-password" className="block w-full rounded border px-2 py-1" />
        </label>
        <button type="submit" className="rounded bg-blue-700 px-3 py-1 text-white">Sign in</button>
      </form>
    </main>
  )
}
