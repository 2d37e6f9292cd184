import { createHash } from 'node:crypto';
import Fastify from 'fastify';

/**
 * A local stand-in for the projects' release hosts, written to their public pages and APIs
 * (features/releases/official.ts names them). The panel reaches `https://<host>/<path>` at
 * `<url>/<host>/<path>` (RELEASE_SOURCES_URL). Each project publishes `version`, one archive
 * (any bytes a test gives) and its checksum as that project does: WordPress a `.sha1`,
 * Nextcloud, phpMyAdmin and Moodle a `.sha256` file, Joomla and Roundcube GitHub's `digest`.
 */
export interface FakeReleaseSources {
  url: string;
  /** The archive each project publishes (its checksum follows it). */
  archives: Record<string, { version: string; bytes: Buffer }>;
  /** Projects whose archive is served altered: its published checksum no longer matches. */
  tampered: Set<string>;
  /** Requests seen, as paths. */
  calls: string[];
  close(): Promise<void>;
}

const hex = (algorithm: string, bytes: Buffer) => createHash(algorithm).update(bytes).digest('hex');

/** `port`: 0 for any free one; the e2e panel expects it on a fixed one (playwright.config.ts). */
export async function startFakeReleaseSources(
  archives: FakeReleaseSources['archives'],
  port = 0,
): Promise<FakeReleaseSources> {
  const app = Fastify({ logger: false });
  const calls: string[] = [];
  const tampered = new Set<string>();
  app.addHook('onRequest', async (req) => void calls.push(req.url));
  const a = (name: string) => {
    const found = archives[name];
    if (!found) throw new Error(`the fake publishes no ${name}`);
    return found;
  };
  const file =
    (bytes: Buffer) => (_req: unknown, reply: { type(t: string): { send(b: Buffer): unknown } }) =>
      reply.type('application/octet-stream').send(bytes);

  app.get('/api.wordpress.org/core/version-check/1.7/', async () => ({
    offers: [
      {
        response: 'upgrade',
        download: `https://downloads.wordpress.org/release/wordpress-${a('wordpress').version}.zip`,
        locale: 'en_US',
        current: a('wordpress').version,
        version: a('wordpress').version,
      },
      { response: 'autoupdate', current: '6.0.11', version: '6.0.11' },
    ],
    translations: [],
  }));
  app.get('/wordpress.org/:file', async (req, reply) => {
    const { file: name } = req.params as { file: string };
    const w = a('wordpress');
    const base = `wordpress-${w.version}.tar.gz`;
    if (name === base)
      return reply
        .type('application/gzip')
        .send(tampered.has('wordpress') ? Buffer.concat([w.bytes, Buffer.from('x')]) : w.bytes);
    if (name === `${base}.sha1`) return hex('sha1', w.bytes);
    if (name === `${base}.md5`) return hex('md5', w.bytes);
    return reply.code(404).send('Not Found');
  });

  app.get('/download.nextcloud.com/server/releases/', async (_req, reply) => {
    const v = a('nextcloud').version;
    const names = [
      'nextcloud-29.0.9.tar.bz2',
      `nextcloud-${v}.tar.bz2`,
      `nextcloud-${v}.zip`,
      'latest.tar.bz2',
    ];
    return reply
      .type('text/html')
      .send(
        `<html><body><h1>Index of /server/releases</h1>${names.map((n) => `<a href="${n}">${n}</a>`).join('\n')}</body></html>`,
      );
  });
  app.get('/download.nextcloud.com/server/releases/:file', async (req, reply) => {
    const { file: name } = req.params as { file: string };
    const n = a('nextcloud');
    const base = `nextcloud-${n.version}.tar.bz2`;
    if (name === base) return file(n.bytes)(req, reply);
    if (name === `${base}.sha256`) return `${hex('sha256', n.bytes)}  ${base}\n`;
    return reply.code(404).send('Not Found');
  });

  app.get('/www.phpmyadmin.net/home_page/version.json', async () => {
    const v = a('phpmyadmin').version;
    return {
      version: v,
      date: '2025-01-21',
      releases: [
        { version: v, date: '2025-01-21', php_versions: '>=7.2,<8.5', mysql_versions: '>=5.5' },
      ],
    };
  });
  app.get('/files.phpmyadmin.net/phpMyAdmin/:version/:file', async (req, reply) => {
    const { version, file: name } = req.params as { version: string; file: string };
    const p = a('phpmyadmin');
    const base = `phpMyAdmin-${p.version}-all-languages.tar.gz`;
    if (version !== p.version) return reply.code(404).send('Not Found');
    if (name === base) return file(p.bytes)(req, reply);
    if (name === `${base}.sha256`) return `${hex('sha256', p.bytes)}  ${base}\n`;
    return reply.code(404).send('Not Found');
  });

  app.get('/download.moodle.org/releases/latest/', async (_req, reply) => {
    const v = a('moodle').version;
    const branch = `stable${v.split('.').slice(0, 2).join('').padEnd(3, '0')}`;
    return reply
      .type('text/html')
      .send(
        `<a href="https://download.moodle.org/download.php/${branch}/moodle-${v}.tgz">moodle-${v}.tgz</a> <a href="https://download.moodle.org/download.php/${branch}/moodle-${v}.zip">zip</a>`,
      );
  });
  app.get('/download.moodle.org/download.php/direct/:branch/:file', async (req, reply) => {
    const { file: name } = req.params as { file: string };
    const m = a('moodle');
    const base = `moodle-${m.version}.tgz`;
    if (name === base) return file(m.bytes)(req, reply);
    if (name === `${base}.sha256`) return `${hex('sha256', m.bytes)}  ${base}\n`;
    return reply.code(404).send('Not Found');
  });

  const github = (repo: string, project: string, asset: (v: string) => string) => {
    return async () => {
      const r = a(project);
      const name = asset(r.version);
      return {
        tag_name: r.version,
        name: r.version,
        draft: false,
        prerelease: false,
        assets: [
          {
            name: `${name}.asc`,
            browser_download_url: `https://github.com/${repo}/releases/download/${r.version}/${name}.asc`,
            size: 833,
            digest: `sha256:${'0'.repeat(64)}`,
          },
          {
            name,
            browser_download_url: `https://github.com/${repo}/releases/download/${r.version}/${name}`,
            size: r.bytes.length,
            digest: `sha256:${hex('sha256', r.bytes)}`,
          },
        ],
      };
    };
  };
  app.get(
    '/api.github.com/repos/joomla/joomla-cms/releases/latest',
    github('joomla/joomla-cms', 'joomla', (v) => `Joomla_${v}-Stable-Full_Package.zip`),
  );
  app.get(
    '/api.github.com/repos/roundcube/roundcubemail/releases/latest',
    github('roundcube/roundcubemail', 'roundcube', (v) => `roundcubemail-${v}-complete.tar.gz`),
  );
  app.get('/github.com/:owner/:repo/releases/download/:tag/:file', async (req, reply) => {
    const { repo } = req.params as { repo: string };
    const r = a(repo === 'joomla-cms' ? 'joomla' : 'roundcube');
    return file(r.bytes)(req, reply);
  });

  const url = await app.listen({ host: '127.0.0.1', port });
  return { url, archives, tampered, calls, close: () => app.close() };
}
