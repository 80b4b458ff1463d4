import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { LookalikeIndex } from './match.ts'
import { diffZoneNames, namesOfZoneFile, namesOfZoneLines, newLookalikes } from './zone-file.ts'

const DAY1 = `com.	86400	in	soa	a.gtld-servers.net. nstld.verisign-grs.com. 1 1800 900 604800 86400
com.	172800	in	ns	a.gtld-servers.net.
example.com.	172800	in	ns	ns1.example.net.
example.com.	172800	in	ns	ns2.example.net.
ns1.example.com.	172800	in	a	192.0.2.1
acme.com.	172800	in	ns	ns1.acme.net.
; a comment line
sub.delegated.example.com.	172800	in	ns	ns1.example.net.
globex.com.	172800	in	ns	ns1.globex.net.
`
const DAY2 = `$ORIGIN com.
@	86400	IN	SOA	a.gtld-servers.net. nstld.verisign-grs.com. 2 1800 900 604800 86400
example	172800	IN	NS	ns1.example.net.
	172800	IN	NS	ns2.example.net.
acme	172800	IN	NS	ns1.acme.net.
acmee	3600	IN	NS	ns1.parking.example.
xn--80akut	3600	IN	NS	ns1.parking.example.
fresh	3600	IN	NS	ns1.parking.example.
`

describe('zone-file feeds', () => {
  test('reads the delegated names of a CZDS master file, written out in full or relative to $ORIGIN', () => {
    expect([...namesOfZoneLines(DAY1.split('\n'), 'com')].sort()).toEqual(['acme.com', 'example.com', 'globex.com'])
    expect([...namesOfZoneLines(DAY2.split('\n'), 'com.')].sort()).toEqual(['acme.com', 'acmee.com', 'example.com', 'fresh.com', 'xn--80akut.com'])
  })

  test('diffs two days and matches only the new names against the brands', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'zone-'))
    writeFileSync(join(dir, 'day1.zone'), DAY1)
    writeFileSync(join(dir, 'day2.zone'), DAY2)
    const diff = diffZoneNames(await namesOfZoneFile(join(dir, 'day1.zone'), 'com'), await namesOfZoneFile(join(dir, 'day2.zone'), 'com'))
    expect(diff).toEqual({ added: ['acmee.com', 'fresh.com', 'xn--80akut.com'], dropped: ['globex.com'] })
    const found = newLookalikes(new LookalikeIndex([{ id: 'acme', name: 'acme.com' }]), diff.added)
    expect(found.map((f) => [f.name, f.matches[0]!.brand, f.matches[0]!.fuzzers.includes('addition') || f.matches[0]!.fuzzers.includes('cyrillic')])).toEqual([
      ['acmee.com', 'acme', true],
      ['xn--80akut.com', 'acme', true],
    ])
  })
})
