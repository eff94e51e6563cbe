/**
 * A throw-away certificate authority and a server certificate it signed, made with the openssl
 * command at test time (no private key is ever committed): what a company's private CA is to a
 * self-hosted runner, handed to the action with NODE_EXTRA_CA_CERTS.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface TestCertificates {
  /** The CA certificate's file (PEM): the value of NODE_EXTRA_CA_CERTS. */
  caFile: string;
  /** The server's key and certificate (PEM), for `hostname`. */
  key: string;
  cert: string;
}

function openssl(dir: string, args: string[]): void {
  execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
}

/** Writes the CA into `dir` and returns it with a server certificate for `hostname`. */
export function makeTestCertificates(dir: string, hostname: string): TestCertificates {
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  openssl(dir, [
    'req',
    '-x509',
    ...ec,
    '-keyout',
    'ca.key',
    '-out',
    'ca.pem',
    '-days',
    '2',
    '-subj',
    '/CN=deploy-action test CA',
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
  ]);
  openssl(dir, [
    'req',
    ...ec,
    '-keyout',
    'server.key',
    '-out',
    'server.csr',
    '-subj',
    `/CN=${hostname}`,
  ]);
  writeFileSync(
    join(dir, 'server.ext'),
    `subjectAltName=DNS:${hostname}\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n`,
  );
  openssl(dir, [
    'x509',
    '-req',
    '-in',
    'server.csr',
    '-CA',
    'ca.pem',
    '-CAkey',
    'ca.key',
    '-set_serial',
    '1',
    '-days',
    '2',
    '-extfile',
    'server.ext',
    '-out',
    'server.pem',
  ]);
  return {
    caFile: join(dir, 'ca.pem'),
    key: readFileSync(join(dir, 'server.key'), 'utf8'),
    cert: readFileSync(join(dir, 'server.pem'), 'utf8'),
  };
}
