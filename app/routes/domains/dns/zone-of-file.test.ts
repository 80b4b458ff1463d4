import { describe, expect, it } from 'vitest'
import { declaredZone, matchZone } from './zone-of-file.ts'

const zones = [{ name: 'example.com' }, { name: 'example.org' }]

describe('the zone a file is for', () => {
  it('reads the SOA owner, resolved against $ORIGIN, before the first $ORIGIN alone', () => {
    expect(declaredZone('$ORIGIN other.net.\n$TTL 300\n@ IN SOA ns1 host 1 2 3 4 5\nwww A 192.0.2.1')).toEqual({ name: 'other.net', fromSoa: true })
    expect(declaredZone('; exported\nExample.ORG. 3600 IN SOA ( ns1 host\n 1 2 3 4 5 )')).toEqual({ name: 'example.org', fromSoa: true })
    expect(declaredZone('$ORIGIN www.example.com.\n@ A 192.0.2.1')).toEqual({ name: 'www.example.com', fromSoa: false })
    expect(declaredZone('$TTL 300\nwww A 192.0.2.1')).toBeNull()
  })

  it('matches a zone of the account, a $ORIGIN inside one, or names the zone the account lacks', () => {
    expect(matchZone({ name: 'example.org', fromSoa: true }, zones)).toEqual({ zone: { name: 'example.org' } })
    expect(matchZone({ name: 'www.example.com', fromSoa: false }, zones)).toEqual({ zone: { name: 'example.com' } })
    expect(matchZone({ name: 'other.net', fromSoa: true }, zones)).toEqual({ missing: 'other.net' })
    expect(matchZone({ name: 'sub.example.com', fromSoa: true }, zones)).toEqual({ missing: 'sub.example.com' })
    expect(matchZone(null, zones)).toEqual({})
  })
})
