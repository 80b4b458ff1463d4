import { useLoaderData } from 'react-router'

export const meta = () => [{ title: 'Domains' }]

const STATUSES = ['active', 'expired', 'redemption', 'pending']
const TLDS = ['com', 'net', 'org', 'io', 'de']

/** 25 rows of a domain list, made in memory: the work of a render, not of a database. */
export function loader({ request }: { request: Request }) {
  const page = Number(new URL(request.url).searchParams.get('page') ?? 1) || 1
  const rows = Array.from({ length: 25 }, (_, i) => {
    const n = (page - 1) * 25 + i + 1
    return {
      id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
      name: `example-${n}.${TLDS[n % TLDS.length]}`,
      status: STATUSES[n % STATUSES.length]!,
      expiresAt: new Date(Date.UTC(2026, n % 12, 1 + (n % 28))).toISOString().slice(0, 10),
      autoRenew: n % 3 !== 0,
      tags: n % 2 ? ['vip'] : [],
    }
  })
  return { rows, total: 320, page }
}

export default function Table() {
  const { rows, total, page } = useLoaderData<typeof loader>()
  return (
    <main>
      <h1>Domains</h1>
      <p>
        {total} domains, page {page}
      </p>
      <table>
        <thead>
          <tr>
            <th>Name</th>
            <th>Status</th>
            <th>Expires</th>
            <th>Auto-renew</th>
            <th>Tags</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.id}>
              <td>
                <a href={`/domains/${row.id}`}>{row.name}</a>
              </td>
              <td>{row.status}</td>
              <td>{row.expiresAt}</td>
              <td>{row.autoRenew ? 'on' : 'off'}</td>
              <td>{row.tags.join(', ')}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <nav>
        <a href={`?page=${page + 1}`}>Next</a>
      </nav>
    </main>
  )
}
