import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** PEM texts made with openssl for the SSL tests: a CA, an intermediate, and leaves. */
export interface TestPki {
  dir: string;
  ca: string;
  intermediate: string;
  /** A leaf for `names`, issued by the intermediate. */
  leaf(names: string[], options?: { days?: number; key?: 'ec' | 'rsa' }): Promise<Leaf>;
  /** A key of no certificate. */
  strayKey: string;
  close(): void;
}
export interface Leaf {
  certificate: string;
  key: string;
}

const read = (file: string) => fs.readFileSync(file, 'utf8');

async function openssl(dir: string, args: string[]) {
  await run('openssl', args, { cwd: dir });
}

/** A throwaway PKI in a temp folder: CA -> intermediate -> leaves. */
export async function makePki(): Promise<TestPki> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stackdeck-pki-'));
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  fs.writeFileSync(
    path.join(dir, 'ca.ext'),
    'basicConstraints=critical,CA:TRUE\nkeyUsage=critical,keyCertSign,cRLSign\n',
  );
  await openssl(dir, [
    'req',
    '-x509',
    ...ec,
    '-days',
    '30',
    '-subj',
    '/CN=Stackdeck Test Root',
    '-keyout',
    'ca.key',
    '-out',
    'ca.pem',
  ]);
  await openssl(dir, [
    'req',
    ...ec,
    '-subj',
    '/CN=Stackdeck Test Intermediate',
    '-keyout',
    'int.key',
    '-out',
    'int.csr',
  ]);
  await openssl(dir, [
    'x509',
    '-req',
    '-in',
    'int.csr',
    '-CA',
    'ca.pem',
    '-CAkey',
    'ca.key',
    '-days',
    '30',
    '-extfile',
    'ca.ext',
    '-out',
    'int.pem',
  ]);
  await openssl(dir, [
    'genpkey',
    '-algorithm',
    'EC',
    '-pkeyopt',
    'ec_paramgen_curve:P-256',
    '-out',
    'stray.key',
  ]);
  let n = 0;
  return {
    dir,
    ca: read(path.join(dir, 'ca.pem')),
    intermediate: read(path.join(dir, 'int.pem')),
    strayKey: read(path.join(dir, 'stray.key')),
    async leaf(names, options = {}) {
      n += 1;
      const base = `leaf${n}`;
      fs.writeFileSync(
        path.join(dir, `${base}.ext`),
        `subjectAltName=${names.map((d) => `DNS:${d}`).join(',')}\nbasicConstraints=CA:FALSE\n`,
      );
      const keyArgs = options.key === 'rsa' ? ['-newkey', 'rsa:2048', '-nodes'] : ec;
      await openssl(dir, [
        'req',
        ...keyArgs,
        '-subj',
        `/CN=${names[0]}`,
        '-keyout',
        `${base}.key`,
        '-out',
        `${base}.csr`,
      ]);
      await openssl(dir, [
        'x509',
        '-req',
        '-in',
        `${base}.csr`,
        '-CA',
        'int.pem',
        '-CAkey',
        'int.key',
        '-days',
        String(options.days ?? 30),
        '-extfile',
        `${base}.ext`,
        '-out',
        `${base}.pem`,
      ]);
      return {
        certificate: read(path.join(dir, `${base}.pem`)),
        key: read(path.join(dir, `${base}.key`)),
      };
    },
    close() {
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
