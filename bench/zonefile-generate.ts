// Writes a large, valid, deterministic BIND zone for bench/zonefile.ts.
// Usage: node bench/zonefile-generate.ts [records=1000000] [out=bench/out/zone-1m.db] [origin=bench.example]
import { createWriteStream, mkdirSync } from 'node:fs'
import path from 'node:path'

/** A mix that looks like real zones: many A/AAAA, some MX/TXT/CNAME/SRV/CAA, relative and absolute names. */
export async function generateZone(records: number, file: string, origin = 'bench.example'): Promise<number> {
  mkdirSync(path.dirname(file), { recursive: true })
  const out = createWriteStream(file)
  let buffer = ''
  const push = (line: string) => {
    buffer += line + '\n'
    if (buffer.length > 1 << 16) {
      const chunk = buffer
      buffer = ''
      if (!out.write(chunk)) return new Promise<void>((resolve) => out.once('drain', resolve))
    }
    return undefined
  }
  await push(`$ORIGIN ${origin}.`)
  await push('$TTL 3600')
  await push(`@ IN SOA ns1.${origin}. hostmaster.${origin}. ( 2026010100 ; serial`)
  await push('        10800 3600 604800 3600 )')
  await push('  IN NS ns1')
  await push(`  IN NS ns2.${origin}.`)
  await push('ns1 IN A 192.0.2.1')
  await push('ns2 IN A 192.0.2.2')
  let written = 5
  let i = 0
  // Each host gets a cycle of record kinds so every type shows up in proportion.
  while (written < records) {
    const host = `h${i}`
    const a = `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`
    const kind = i % 10
    const lines: string[] = []
    lines.push(`${host} 300 IN A ${a}`)
    if (kind < 6) lines.push(`${host} IN AAAA 2001:db8:${(i >> 16).toString(16)}::${(i & 0xffff).toString(16)}`)
    if (kind === 0) lines.push(`${host} IN MX 10 ${host}.${origin}.`)
    if (kind === 1) lines.push(`${host} IN TXT "v=spf1 ip4:${a} -all" "id=${i}"`)
    if (kind === 2) lines.push(`_sip._tcp.${host} IN SRV 10 20 5060 ${host}`)
    if (kind === 3) lines.push(`www.${host} IN CNAME ${host}`)
    if (kind === 4) lines.push(`${host} IN CAA 0 issue "letsencrypt.org"`)
    if (kind === 5) lines.push(`\tIN TXT "host ${i}; with \\"quotes\\""`)
    for (const line of lines) {
      if (written >= records) break
      await push(line)
      written++
    }
    i++
  }
  out.write(buffer)
  await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())))
  return written
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const records = Number(process.argv[2] ?? 1_000_000)
  const file = process.argv[3] ?? 'bench/out/zone-1m.db'
  const count = await generateZone(records, file, process.argv[4] ?? 'bench.example')
  console.log(`wrote ${count} records to ${file}`)
}
