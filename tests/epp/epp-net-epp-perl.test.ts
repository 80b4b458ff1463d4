import { execFile, execFileSync } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startLocalRegistry, type LocalRegistryServer } from '#server/integrations/registry/local-server.ts'
import { checkXsdDir } from '#server/integrations/registry/xsd-validator.ts'

// An independent EPP client (Debian libnet-epp-perl) against our local registry: shows the server
// speaks EPP as others understand it, not only as our own client does.

const hasNetEpp = (() => {
  try {
    execFileSync('perl', ['-MNet::EPP::Client', '-MNet::EPP::Frame', '-MIO::Socket::SSL', '-e', '1'], { stdio: 'pipe' })
    return true
  } catch {
    return false
  }
})()
if (!hasNetEpp) console.warn('SKIPPED epp-net-epp-perl: the Perl module Net::EPP is absent (apt-get install -y libnet-epp-perl)')
const xsd = checkXsdDir()
if (!xsd.ok) throw new Error(`${xsd.reason} — the EPP tests need the RFC schemas in ../shared/epp-xsd beside the project.`)

const SCRIPT = String.raw`
use strict; use warnings;
use Net::EPP::Client; use Net::EPP::Frame;
my ($port, $ca, $id, $pw, @names) = @ARGV;
my $ns = 'urn:ietf:params:xml:ns:epp-1.0';
my $epp = Net::EPP::Client->new(host => '127.0.0.1', port => $port, ssl => 1, dom => 1);
my $greeting = $epp->connect(SSL_ca_file => $ca, SSL_hostname => 'localhost', SSL_verifycn_name => 'localhost', SSL_verify_mode => 1);
print 'greeting ', $greeting->getElementsByTagNameNS($ns, 'svID')->item(0)->textContent, "\n";
sub code { $_[0]->getElementsByTagNameNS($ns, 'result')->item(0)->getAttribute('code') }
my $login = Net::EPP::Frame::Command::Login->new;
$login->clID->appendText($id);
$login->pw->appendText($pw);
$login->version->appendText('1.0');
$login->lang->appendText('en');
my $uri = $login->createElement('objURI');
$uri->appendText('urn:ietf:params:xml:ns:domain-1.0');
$login->svcs->appendChild($uri);
$login->clTRID->appendText('PERL-LOGIN-1');
print 'login ', code($epp->request($login)), "\n";
my $check = Net::EPP::Frame::Command::Check::Domain->new;
$check->addDomain($_) for @names;
$check->clTRID->appendText('PERL-CHECK-1');
my $answer = $epp->request($check);
print 'check ', code($answer), "\n";
for my $cd ($answer->getElementsByTagNameNS('urn:ietf:params:xml:ns:domain-1.0', 'name')) {
  print 'name ', $cd->textContent, ' ', $cd->getAttribute('avail'), "\n";
}
my $logout = Net::EPP::Frame::Command::Logout->new;
$logout->clTRID->appendText('PERL-LOGOUT-1');
print 'logout ', code($epp->request($logout)), "\n";
`

describe.skipIf(!hasNetEpp)('Net::EPP (Perl) against the local registry', () => {
  let server: LocalRegistryServer
  let dir: string

  beforeAll(async () => {
    server = await startLocalRegistry({ port: 0, clients: [{ id: 'perl-registrar', password: 'perl-secret-1' }] })
    dir = mkdtempSync(path.join(tmpdir(), 'net-epp-'))
    writeFileSync(path.join(dir, 'ca.pem'), server.certificate)
    writeFileSync(path.join(dir, 'client.pl'), SCRIPT)
  })
  afterAll(async () => {
    await server?.close()
  })

  it('greets, logs in, checks domains and logs out; every frame validates', async () => {
    const output = await new Promise<string>((resolve, reject) => {
      execFile(
        'perl',
        [path.join(dir, 'client.pl'), String(server.port), path.join(dir, 'ca.pem'), 'perl-registrar', 'perl-secret-1', 'free.test', 'nope.invalidtld'],
        { timeout: 20_000 },
        (error, stdout, stderr) => (error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout)),
      )
    })
    expect(output.trim().split('\n')).toEqual(['greeting Registrar Portal local registry', 'login 1000', 'check 1000', 'name free.test 1', 'name nope.invalidtld 0', 'logout 1500'])
    expect(server.problems).toEqual([])
    expect(server.validator!.stats).toMatchObject({ received: 3, sent: 4, invalidReceived: 0, invalidSent: 0 })
  })
})
