import { X509Certificate } from 'node:crypto';
import fs from 'node:fs/promises';
import type { ConfigFile } from '../../agent/lib/configTransaction';
import { run } from '../../agent/lib/exec';
import { OpError, opFieldError } from '../../agent/lib/opError';
import { defineAgentFeature } from '../../agent/ops/types';
import { applyApp } from '../webapps/agentApi';
import { certbotCause } from './certbotCause';
import { RENEW_BEFORE_DAYS, RENEW_CRON } from './renewal';
import { ACME_ROOT, CERTBOT_DIR, certbotLineage, SSL_DIR, sslDir } from '../webapps/api';
import { ops } from './resource';

const fullchainOf = (name: string) => `${sslDir(name)}/fullchain.pem`;
const privkeyOf = (name: string) => `${sslDir(name)}/privkey.pem`;

/** The app's certificate folder: root's, 0700 (nginx's master reads it as root). */
async function certDir(name: string): Promise<void> {
  await fs.mkdir(sslDir(name), { recursive: true, mode: 0o700 });
  const stat = await fs.lstat(sslDir(name));
  if (!stat.isDirectory()) throw new OpError('refused', `${sslDir(name)} is not a directory`);
  await fs.chown(sslDir(name), 0, 0);
  await fs.chmod(sslDir(name), 0o700);
}

/** The certificate files as new ConfigFiles of the transaction (root's, 0600). */
function certFiles(name: string, fullchain: string, privkey: string): ConfigFile[] {
  const owner = { uid: 0, gid: 0 };
  return [
    { path: fullchainOf(name), content: fullchain, mode: 0o600, owner },
    { path: privkeyOf(name), content: privkey, mode: 0o600, owner },
  ];
}

/** What the served certificate says (the first block of the full chain). */
async function readInfo(file: string) {
  const text = await fs.readFile(file, 'utf8').catch(() => null);
  if (text === null) throw new OpError('failed', `${file} is missing`);
  const cert = new X509Certificate(text);
  const names = (cert.subjectAltName ?? '')
    .split(/,\s*/)
    .filter((n) => n.startsWith('DNS:'))
    .map((n) => n.slice(4));
  const cn = /(?:^|\n)CN=([^\n]+)/.exec(cert.subject)?.[1];
  return {
    names: names.length ? names : cn ? [cn] : [],
    issuer: cert.issuer.replace(/\n/g, ', '),
    not_before: new Date(cert.validFrom).toISOString(),
    not_after: new Date(cert.validTo).toISOString(),
  };
}

/** certbot's own folders, argv only: nothing of the user's reaches a shell. */
const certbotDirs = [
  '--config-dir',
  `${CERTBOT_DIR}/config`,
  '--work-dir',
  `${CERTBOT_DIR}/work`,
  '--logs-dir',
  `${CERTBOT_DIR}/logs`,
];
const liveDir = (name: string) => `${CERTBOT_DIR}/config/live/app-${name}`;

/** certbot's renewal, twice a day, and the hook that hands a renewed certificate to nginx. */
const CRON_PATH = '/etc/cron.d/stackdeck-certbot';
const HOOK_PATH = '/usr/local/lib/stackdeck/certbot-deploy';

function renderCron(caBundle: string | null): string {
  return `# Written by Stackdeck: renews the apps' Let's Encrypt certificates (${RENEW_BEFORE_DAYS} days before their end).
SHELL=/bin/sh
PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
${caBundle ? `REQUESTS_CA_BUNDLE=${caBundle}\n` : ''}${RENEW_CRON} root certbot renew -q ${certbotDirs.join(' ')} --deploy-hook ${HOOK_PATH}
`;
}

/**
 * Run by certbot for each renewed lineage (RENEWED_LINEAGE, one of its own folders): the
 * files go where the app's vhost reads them (only for an app that has that folder), then nginx
 * reloads if it accepts the configuration.
 */
const HOOK = `#!/bin/sh
# Written by Stackdeck: a renewed certificate goes where nginx reads it, then nginx reloads.
set -eu
lineage="\${RENEWED_LINEAGE:?}"
name=$(basename "$lineage")
case "$name" in app-[a-z]*) ;; *) exit 0 ;; esac
case "$name" in *[!a-z0-9-]*) exit 0 ;; esac
dir=${SSL_DIR}/$name
[ -d "$dir" ] || exit 0
umask 077
cp "$lineage/fullchain.pem" "$dir/.fullchain.pem.new"
cp "$lineage/privkey.pem" "$dir/.privkey.pem.new"
mv "$dir/.fullchain.pem.new" "$dir/fullchain.pem"
mv "$dir/.privkey.pem.new" "$dir/privkey.pem"
if nginx -t -q; then nginx -s reload; fi
`;

/** Writes the renewal's cron file and hook when they differ (idempotent). */
async function renewal(caBundle: string | null): Promise<void> {
  const want = [
    { path: HOOK_PATH, content: HOOK, mode: 0o755 },
    { path: CRON_PATH, content: renderCron(caBundle), mode: 0o644 },
  ];
  await fs.mkdir('/usr/local/lib/stackdeck', { recursive: true, mode: 0o755 });
  for (const file of want) {
    const now = await fs.readFile(file.path, 'utf8').catch(() => null);
    if (now === file.content) continue;
    await fs.writeFile(`${file.path}.tmp`, file.content, { mode: file.mode });
    await fs.chmod(`${file.path}.tmp`, file.mode);
    await fs.rename(`${file.path}.tmp`, file.path);
  }
}

/**
 * SSL: every op holds the web server's lock (the vhost is the app's), and writes the files and
 * the vhost as one transaction with nginx's check: a refused certificate leaves the app as it
 * was, its old certificate included.
 */
export const agent = defineAgentFeature(ops, {
  ops: {
    async 'ssl.install'({ app, files }) {
      const name = app.name;
      if (!app.tls) throw new OpError('refused', 'The app spec carries no TLS settings');
      await certDir(name);
      if (!files && !(await fs.stat(fullchainOf(name)).catch(() => null)))
        throw opFieldError(
          'certificate',
          'The server has no certificate of this app: upload it again',
        );
      await applyApp(app, files ? certFiles(name, files.fullchain, files.privkey) : []);
      return readInfo(fullchainOf(name));
    },

    async 'ssl.letsencrypt'({ app, email, directory, ca_bundle, force }) {
      const name = app.name;
      if (!app.tls) throw new OpError('refused', 'The app spec carries no TLS settings');
      await fs.mkdir(`${ACME_ROOT}/.well-known/acme-challenge`, { recursive: true, mode: 0o755 });
      await fs.mkdir(CERTBOT_DIR, { recursive: true, mode: 0o700 });
      const args = [
        'certonly',
        '--non-interactive',
        '--agree-tos',
        '--webroot',
        '-w',
        ACME_ROOT,
        '--cert-name',
        `app-${name}`,
        ...app.domains.flatMap((d) => ['-d', d]),
        // `--opt=value`: a value can never be read as an option of its own.
        `--server=${directory}`,
        ...(email ? [`--email=${email}`] : ['--register-unsafely-without-email']),
        ...(force ? ['--force-renewal'] : ['--keep-until-expiring']),
        ...certbotDirs,
      ];
      const res = await run('certbot', args, {
        timeoutMs: 240_000,
        env: ca_bundle ? { REQUESTS_CA_BUNDLE: ca_bundle } : {},
      });
      if (res.code !== 0)
        throw opFieldError('domains', certbotCause(`${res.stdout}\n${res.stderr}`));
      const fullchain = await fs.readFile(`${liveDir(name)}/fullchain.pem`, 'utf8');
      const privkey = await fs.readFile(`${liveDir(name)}/privkey.pem`, 'utf8');
      await certDir(name);
      await applyApp(app, certFiles(name, fullchain, privkey));
      await renewal(ca_bundle);
      return readInfo(fullchainOf(name));
    },

    async 'ssl.list'() {
      const dirs = await fs.readdir(SSL_DIR).catch(() => [] as string[]);
      const found = [];
      for (const dir of dirs.filter((d) => d.startsWith('app-'))) {
        const name = dir.slice('app-'.length);
        const info = await readInfo(fullchainOf(name)).catch(() => null);
        if (info) found.push({ app: name, ...info });
      }
      return found;
    },

    async 'ssl.remove'({ app, name }) {
      if (app.tls) throw new OpError('refused', 'The app spec still carries TLS settings');
      const existed = (await fs.stat(fullchainOf(name)).catch(() => null)) !== null;
      // The app's own files may be gone already (the app is being deleted): nothing to serve.
      const vhost = await fs.stat(`/etc/nginx/conf.d/stackdeck-${name}.conf`).catch(() => null);
      if (vhost) await applyApp(app);
      await fs.rm(sslDir(name), { recursive: true, force: true });
      for (const path of certbotLineage(name)) await fs.rm(path, { recursive: true, force: true });
      return { removed: existed };
    },
  },
  locks: {
    'ssl.install': () => ['webserver'],
    'ssl.letsencrypt': () => ['webserver'],
    'ssl.remove': () => ['webserver'],
  },
});
