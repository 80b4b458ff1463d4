import { describe, expect, it } from 'vitest'
import { parseZone, parseZoneText, tokenizeRdata } from './zone-parser.ts'
import { printZoneText } from './zone-printer.ts'

const parse = (text: string, zone = 'example.com') => parseZoneText(text, { zone })
const one = async (text: string) => {
  const { records, errors } = await parse(`$TTL 3600\n${text}`)
  expect(errors).toEqual([])
  expect(records).toHaveLength(1)
  return records[0]!
}
const errorOf = async (text: string, zone = 'example.com') => {
  const { errors } = await parse(text, zone)
  expect(errors.length).toBeGreaterThan(0)
  return errors[0]!
}

describe('master-file syntax (RFC 1035 §5)', () => {
  it('resolves $ORIGIN, @, relative and absolute names', async () => {
    const { records, errors } = await parse(
      ['$TTL 300', '@ A 192.0.2.1', 'www A 192.0.2.2', 'abs.example.com. A 192.0.2.3', '$ORIGIN sub.example.com.', 'x A 192.0.2.4', '$ORIGIN deeper', 'y A 192.0.2.5', '@ A 192.0.2.6'].join('\n'),
    )
    expect(errors).toEqual([])
    expect(records.map((r) => r.name)).toEqual(['example.com', 'www.example.com', 'abs.example.com', 'x.sub.example.com', 'y.deeper.sub.example.com', 'deeper.sub.example.com'])
  })

  it('takes $TTL, an explicit TTL with units, and the previous owner when the owner is omitted', async () => {
    const { records, errors } = await parse('$TTL 1h\nwww 90 IN A 192.0.2.1\n  IN AAAA 2001:db8::1\n\tMX 10 mail\nb 1d A 192.0.2.2\nc 2h30m A 192.0.2.3')
    expect(errors).toEqual([])
    expect(records.map((r) => [r.name, r.type, r.ttl])).toEqual([
      ['www.example.com', 'A', 90],
      ['www.example.com', 'AAAA', 3600],
      ['www.example.com', 'MX', 3600],
      ['b.example.com', 'A', 86400],
      ['c.example.com', 'A', 9000],
    ])
  })

  it('accepts TTL and class in either order, and the class may be left out', async () => {
    const { records, errors } = await parse('a 300 IN A 192.0.2.1\nb IN 300 A 192.0.2.1\nc 300 A 192.0.2.1\nd in 300 a 192.0.2.1')
    expect(errors).toEqual([])
    expect(records.map((r) => r.ttl)).toEqual([300, 300, 300, 300])
  })

  it('joins lines inside parentheses and skips comments', async () => {
    const { records, errors } = await parse(
      '@ 3600 IN SOA ns1 hostmaster ( ; primary and mailbox\n 2026010101 ; serial\n 2h ; refresh\n 1h 1w\n 300 ) ; minimum\n; a whole comment line\n\n   ; indented comment\n',
    )
    expect(errors).toEqual([])
    expect(records[0]).toMatchObject({ type: 'SOA', content: 'ns1.example.com. hostmaster.example.com. 2026010101 7200 3600 604800 300', line: 1 })
  })

  it('reads quoted strings with escapes, \\DDD escapes and semicolons inside quotes', async () => {
    const r = await one('t TXT "say \\"hi\\"; not a comment" \\065bc "\\226\\130\\172"')
    expect(r.content).toBe('"say \\"hi\\"; not a comment" "Abc" "\\226\\130\\172"')
  })

  it('refuses an owner name PowerDNS refuses: an escape (a dot inside a label, \\DDD), a character it does not serve, * inside a label (issue 26)', async () => {
    for (const [owner, column] of [
      ['dotted\\.label', 1],
      ['a\\032b', 1],
      ['x\\065', 1],
      ['a@b', 1],
      ['a*b', 1],
    ] as const) {
      const { records, errors } = await parse(`$TTL 300\n${owner} A 192.0.2.1\nok A 192.0.2.2`)
      expect(
        records.map((r) => r.name),
        owner,
      ).toEqual(['ok.example.com'])
      expect(errors, owner).toMatchObject([{ line: 2, column }])
      expect(errors[0]!.code === 'owner-characters' || /wildcard/.test(errors[0]!.message), owner).toBe(true)
    }
    // What PowerDNS does take: underscores, an RFC 2317 slash, a leading wildcard label.
    const { records, errors } = await parse('$TTL 300\n_dmarc TXT "v=DMARC1"\n0/26 NS ns1\n*.w A 192.0.2.1')
    expect(errors).toEqual([])
    expect(records.map((r) => r.name)).toEqual(['_dmarc.example.com', '0/26.example.com', '*.w.example.com'])
  })

  it('raises a TTL under the floor to it with a warning on its line, and $TTL likewise; the floor is an option (issue 26)', async () => {
    const file = '$TTL 300\nhost 30 A 192.0.2.1\nother A 192.0.2.2\n$TTL 10\nlast A 192.0.2.3'
    const { records, errors, warnings } = await parseZoneText(file, { zone: 'example.com' })
    expect(errors).toEqual([])
    expect(records.map((r) => [r.name, r.ttl])).toEqual([
      ['host.example.com', 60],
      ['other.example.com', 300],
      ['last.example.com', 60],
    ])
    expect(warnings).toMatchObject([
      { line: 2, column: 6, code: 'ttl-raised', params: { given: 30, ttl: 60 } },
      { line: 4, column: 6, code: 'ttl-raised', params: { given: 10, ttl: 60 } },
    ])
    const floor = await parseZoneText(file, { zone: 'example.com', ttlMin: 5 })
    expect(floor.warnings).toEqual([])
    expect(floor.records.map((r) => r.ttl)).toEqual([30, 300, 10])
  })

  it('streams: records split across chunks in the middle of a line still parse', async () => {
    const text = '$TTL 300\nwww A 192.0.2.1\nmail A 192.0.2.2\n'
    const chunks = [...text].map((ch) => new TextEncoder().encode(ch))
    const names: string[] = []
    for await (const e of parseZone(chunks, { zone: 'example.com' })) if (e.kind === 'record') names.push(e.record.name)
    expect(names).toEqual(['www.example.com', 'mail.example.com'])
  })

  it('converts IDN owners to punycode', async () => {
    expect((await one('bücher A 192.0.2.1')).name).toBe('xn--bcher-kva.example.com')
  })

  it('refuses an owner with a direction control or a zero-width character (issue 26)', async () => {
    for (const owner of ['x\u202e', 'b\u00fccher\u200d', 'a\u200bb\u00fc']) expect((await errorOf(`$TTL 300\n${owner} A 192.0.2.1`)).message, owner).toMatch(/invisible character/)
  })
})

describe('errors carry line and column', () => {
  it.each([
    ['$INCLUDE other.zone', 1, 1, /\$INCLUDE is not supported/],
    ['$TTL 300\n$GENERATE 1-3 x$ A 1.2.3.$', 2, 1, /unknown directive/],
    ['$TTL 300\nwww A 192.0.2.1 (', 2, 17, /never closed/],
    ['$TTL 300\nwww A 192.0.2.1 )', 2, 17, /without a matching/],
    ['$TTL 300\nwww TXT "open', 2, 9, /unterminated quoted string/],
    ['$TTL 300\nwww A 192.0.2.300', 2, 7, /not an IPv4 address/],
    ['$TTL 300\nwww BOGUS data', 2, 5, /record type BOGUS is not supported/],
    ['$TTL 300\nwww CH A 192.0.2.1', 2, 5, /class CH is not supported/],
    ['www A 192.0.2.1', 1, 5, /no TTL/],
    ['$TTL 300\nwww 99999999999 A 192.0.2.1', 2, 5, /above 2147483647/],
    ['$TTL 300\nwww 700000 A 192.0.2.1', 2, 5, /outside the allowed 60–604800/],
    ['$TTL 300\n  A 192.0.2.1', 2, 3, /first record needs an owner/],
    ['$TTL 300\nother.org. A 192.0.2.1', 2, 1, /outside the zone/],
    ['$TTL 300\nbad..name A 192.0.2.1', 2, 1, /empty label/],
    ['$TTL 300\nwww A 192.0.2.1 extra', 2, 17, /unexpected 'extra'/],
    ['$TTL 300\nwww MX 10', 2, 10, /missing mail server/],
    ['$TTL 300\nwww MX 70000 mail', 2, 8, /out of range/],
    ['$TTL 300\nwww TXT "\\999"', 2, 9, /bad escape/],
    ['$TTL 300\n@ CNAME other.org.', 2, 1, /apex/],
    ['$TTL 300\nwww CNAME a\nwww A 192.0.2.1', 3, 1, /CNAME must be alone/],
    ['$TTL 300\nwww CNAME a\nwww CNAME b', 3, 1, /at most one/],
    ['$TTL 300\nwww MX 10 mail_server', 2, 11, /not allowed in a host name/],
    ['$TTL 300\nwww CAA 0 tbs "x"', 2, 11, /not one of issue, issuewild, iodef/],
    ['$TTL 300\nwww CAA 256 issue "x"', 2, 9, /out of range 0–255/],
    ['$TTL 300\nwww CAA 0 iodef "ftp://x"', 2, 17, /iodef/],
    ['$TTL 300\n_s._tcp SRV 1 2 65536 host', 2, 17, /SRV port/],
    ['$TTL 300\nwww DS 1 13 2 abcd', 2, 15, /64 hexadecimal digits/],
    ['$TTL 300\nwww SSHFP 1 1 xyz', 2, 15, /hexadecimal/],
    ['$TTL 300\n_443._tcp TLSA 4 0 1 00', 2, 16, /TLSA usage/],
    ['$TTL 300\nwww AAAA 2001:db8:::1', 2, 10, /not an IPv6 address/],
    ['$TTL 300\n@ SOA ns1 host 1 2 3 4', 2, 23, /missing SOA minimum/],
    ['$TTL 300\n@ SOA ns1 host 1 2 3 4 5\n@ SOA ns1 host 2 2 3 4 5', 3, 1, /more than one SOA/],
    ['$TTL 300\nwww SOA ns1 host 1 2 3 4 5', 2, 1, /apex only/],
  ])('%s → line %i column %i', async (text, line, column, message) => {
    const error = await errorOf(text)
    expect(error.message).toMatch(message)
    expect([error.line, error.column]).toEqual([line, column])
  })

  it('reports every bad line, not only the first, and keeps the good ones', async () => {
    const { records, errors } = await parse('$TTL 300\na A 1\nb A 192.0.2.1\nc A 2\n')
    expect(records.map((r) => r.name)).toEqual(['b.example.com'])
    expect(errors.map((e) => e.line)).toEqual([2, 4])
  })
})

describe('record data per type', () => {
  it.each([
    ['A 192.0.2.1', '192.0.2.1'],
    ['AAAA 2001:DB8:0:0:0:0:0:1', '2001:db8::1'],
    ['AAAA ::ffff:192.0.2.1', '::ffff:c000:201'],
    ['CNAME target', 'target.example.com.'],
    ['CNAME selector1._domainkey.mail.test.', 'selector1._domainkey.mail.test.'],
    ['MX 0 .', '0 .'],
    ['NS ns1.other.net.', 'ns1.other.net.'],
    ['PTR host', 'host.example.com.'],
    ['SRV 10 60 5060 sip', '10 60 5060 sip.example.com.'],
    ['CAA 128 ISSUE "ca.example.net; account=1"', '128 issue "ca.example.net; account=1"'],
    ['CAA 0 iodef "mailto:sec@example.com"', '0 iodef "mailto:sec@example.com"'],
    ['DS 60485 13 2 ( D4B7D520E7BB5F0F67674A0CCEB1E3E0 614B93C4F9E99B8383F6A1E4469DA50A )', '60485 13 2 d4b7d520e7bb5f0f67674a0cceb1e3e0614b93c4f9e99b8383f6a1e4469da50a'],
    ['TLSA 3 1 1 ' + 'AB'.repeat(32), '3 1 1 ' + 'ab'.repeat(32)],
    ['SSHFP 4 2 ' + '0f'.repeat(32), '4 2 ' + '0f'.repeat(32)],
    ['NAPTR 100 10 "S" "SIP+D2U" "" _sip._udp', '100 10 "S" "SIP+D2U" "" _sip._udp.example.com.'],
  ])('%s', async (rdata, content) => {
    expect((await one(`x ${rdata}`)).content).toBe(content)
  })

  it('splits TXT strings longer than 255 octets into several strings', async () => {
    const r = await one(`x TXT "${'a'.repeat(600)}"`)
    expect(r.content).toBe(`"${'a'.repeat(255)}" "${'a'.repeat(255)}" "${'a'.repeat(90)}"`)
  })

  it('fills MX and SRV priority', async () => {
    expect((await one('x MX 5 mail')).priority).toBe(5)
    expect((await one('x A 192.0.2.1')).priority).toBeNull()
  })

  it('tokenises a single line of record data from a form', () => {
    expect(tokenizeRdata('10 "a b" c').tokens.map((t) => [t.text, t.quoted])).toEqual([
      ['10', false],
      ['a b', true],
      ['c', false],
    ])
    expect(tokenizeRdata('"open').error?.message).toMatch(/unterminated/)
  })
})

describe('printer', () => {
  it('prints a file that parses back to the same records', async () => {
    const source = '$TTL 300\n@ SOA ns1 hostmaster 1 7200 3600 604800 300\n@ NS ns1\nns1 A 192.0.2.1\nt TXT "a \\"q\\"" "\\007"\nother.example.com. MX 10 @\n'
    const first = await parse(source)
    const text = printZoneText('example.com', first.records)
    const second = await parse(text)
    expect(second.errors).toEqual([])
    const strip = (rs: typeof first.records) => rs.map(({ line: _line, ...r }) => r)
    expect(strip(second.records)).toEqual(strip(first.records))
    expect(text).toContain('ns1\t300\tIN\tA\t192.0.2.1')
  })
})

describe('one TTL per RRset (RFC 2181 §5.2)', () => {
  it('gives later records of a set the first TTL, adjacent or not, with a warning on each adjusted line', async () => {
    const r = await parse('$TTL 300\nh 60 A 192.0.2.1\nh A 192.0.2.2\no 120 TXT "x"\nh 900 A 192.0.2.3\nh 60 AAAA ::1\nh AAAA ::2')
    expect(r.records.map((x) => [x.type, x.ttl])).toEqual([
      ['A', 60],
      ['A', 60],
      ['TXT', 120],
      ['A', 60],
      ['AAAA', 60],
      ['AAAA', 60],
    ])
    expect(r.warnings.map((w) => [w.line, w.code, w.params?.given, w.params?.ttl, w.params?.first])).toEqual([
      [3, 'rrset-ttl', 300, 60, 2],
      [5, 'rrset-ttl', 900, 60, 2],
      [7, 'rrset-ttl', 300, 60, 6],
    ])
  })

  it('keeps TTLs apart for many sets (the typed-array table grows)', async () => {
    const lines = ['$TTL 300']
    for (let i = 0; i < 20_000; i++) lines.push(`h${i} ${60 + (i % 7)} A 192.0.2.1`)
    for (let i = 0; i < 20_000; i++) lines.push(`h${i} A 192.0.2.2`)
    const r = await parse(lines.join('\n'))
    expect(r.errors).toEqual([])
    expect(r.warnings).toHaveLength(20_000)
    expect(r.records.slice(20_000).every((x, i) => x.ttl === 60 + (i % 7))).toBe(true)
  })
})

describe('HTTPS and SVCB (RFC 9460)', () => {
  it('writes the content the way PowerDNS does: keys in order, named keys by name, ech and unnamed values quoted', async () => {
    expect((await one('x HTTPS 1 . key1=h2 key3=443 ech=AEP+DQA/ mandatory=port')).content).toBe('1 . mandatory=port alpn=h2 port=443 ech="AEP+DQA/"')
    expect((await one('x SVCB 0 svc.example.net.')).content).toBe('0 svc.example.net.')
    expect((await one('x SVCB 3 svc key7="/q{?dns}"')).priority).toBe(3)
  })

  it.each([
    ['x HTTPS 0 . port=1', /AliasMode/],
    ['x HTTPS 1 . port=1 key3=2', /port is given twice/],
    ['x HTTPS 1 . mandatory=mandatory', /cannot list itself/],
    ['x HTTPS 1 . ipv4hint=192.0.2.300', /not an IPv4 address/],
    ['x HTTPS 1 . ipv6hint=zz', /not an IPv6 address/],
    ['x HTTPS 1 . ech=***', /base64/],
    ['x HTTPS 1 . key65535=x', /not a HTTPS parameter/],
    ['x HTTPS 1 . alpn', /needs a value/],
  ])('%s is refused', async (text, message) => {
    const r = await parse(`$TTL 300\n${text}`)
    expect(r.errors[0]?.message).toMatch(message)
  })
})
