import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { createServer } from 'node:tls'
import { describe, expect, it } from 'vitest'
import { EppClient } from '#server/integrations/registry/client.ts'
import { RegistryConnectionError } from '#server/integrations/registry/errors.ts'
import { encodeFrame } from '#server/integrations/registry/framing.ts'
import { startLocalRegistry } from '#server/integrations/registry/local-server.ts'
import { checkXsdDir } from '#server/integrations/registry/xsd-validator.ts'

const xsd = checkXsdDir()
if (!xsd.ok) throw new Error(`${xsd.reason} — the EPP tests need the RFC schemas in ../shared/epp-xsd beside the project.`)

const client = { id: 'registrar-p', password: 'persist-pw-1' }

describe('local registry state and client failure modes', () => {
  it('keeps its state and certificate in DATA_DIR/registry across restarts', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'epp-data-'))
    const first = await startLocalRegistry({ port: 0, dataDir, clients: [client] })
    const epp = new EppClient({ host: '127.0.0.1', port: first.port, tls: { ca: first.certificate, servername: 'localhost' } })
    await epp.connect()
    await epp.login({ clientId: client.id, password: client.password })
    await epp.createDomain({ name: 'kept.test', years: 2, authInfo: 'auth-Kept-1' })
    await epp.logout()
    await first.close()
    expect(JSON.parse(readFileSync(path.join(dataDir, 'registry', 'state.json'), 'utf8')).domains['kept.test'].clID).toBe(client.id)

    const second = await startLocalRegistry({ port: 0, dataDir, clients: [client] })
    try {
      expect(second.certificate).toBe(first.certificate)
      const again = new EppClient({ host: '127.0.0.1', port: second.port, tls: { ca: first.certificate, servername: 'localhost' } })
      await again.connect()
      await again.login({ clientId: client.id, password: client.password })
      expect((await again.infoDomain('kept.test')).authInfo).toBe('auth-Kept-1')
      await again.logout()
      expect(second.problems).toEqual([])
    } finally {
      await second.close()
    }
  })

  it('fails a command with RegistryConnectionError when the registry stops answering, and refuses oversized frames', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'epp-silent-'))
    // Borrow a certificate from a local registry, then serve a registry that greets and goes silent.
    const donor = await startLocalRegistry({ port: 0, tlsDir: dir, clients: [client] })
    await donor.close()
    const greeting = `<epp xmlns="urn:ietf:params:xml:ns:epp-1.0"><greeting><svID>silent</svID><svDate>2030-01-01T00:00:00Z</svDate><svcMenu><version>1.0</version><lang>en</lang><objURI>urn:ietf:params:xml:ns:domain-1.0</objURI></svcMenu><dcp><access><all/></access><statement><purpose><admin/></purpose><recipient><ours/></recipient><retention><stated/></retention></statement></dcp></greeting></epp>`
    let mode: 'silent' | 'huge' = 'silent'
    const silent = createServer({ key: readFileSync(path.join(dir, 'key.pem')), cert: readFileSync(path.join(dir, 'cert.pem')) }, (socket) => {
      socket.write(encodeFrame(greeting))
      socket.on('data', () => {
        if (mode === 'huge') socket.write(encodeFrame(`<epp xmlns="urn:ietf:params:xml:ns:epp-1.0">${' '.repeat(5000)}</epp>`))
      })
      socket.on('error', () => undefined)
    })
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve))
    const port = (silent.address() as { port: number }).port
    const ca = donor.certificate
    try {
      const epp = new EppClient({ host: '127.0.0.1', port, tls: { ca, servername: 'localhost' }, timeoutMs: 300 })
      expect((await epp.connect()).serverId).toBe('silent')
      await expect(epp.checkDomains(['a.test'])).rejects.toBeInstanceOf(RegistryConnectionError)
      expect(epp.isOpen).toBe(false)
      await expect(epp.checkDomains(['a.test'])).rejects.toThrow(/did not answer within 300 ms/)

      mode = 'huge'
      const small = new EppClient({ host: '127.0.0.1', port, tls: { ca, servername: 'localhost' }, maxFrameBytes: 1024 })
      await small.connect()
      await expect(small.checkDomains(['a.test'])).rejects.toThrow(/exceeds the maximum of 1024/)
    } finally {
      silent.close()
    }
  })
})
