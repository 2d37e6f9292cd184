import fs from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/** The package root, from server/plugins/ in development and from dist/server/ when bundled. */
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The footer's License and Changelog: files of this install, served as text. */
const DOCUMENTS: Record<string, string> = {
  '/license.txt': 'LICENSE',
  '/changelog.txt': 'CHANGELOG.md',
};

export default fp(async function documentsPlugin(app: FastifyInstance) {
  for (const [url, file] of Object.entries(DOCUMENTS)) {
    app.get(url, async (_req, reply) => {
      const text = await fs.readFile(`${ROOT}${file}`, 'utf8');
      return reply.type('text/plain; charset=utf-8').header('cache-control', 'no-cache').send(text);
    });
  }
});
