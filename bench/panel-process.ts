/**
 * A panel in its own process for the scale benchmark: a user, N servers with agent keys, a
 * token; it prints them as one JSON line and serves until killed.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { build } from '../server/app';
import { hashPassword } from '../server/auth/passwords';
import { sha256 } from '../server/auth/hash';
import { loadConfig } from '../server/config';

const count = Number(process.argv[2] ?? 5000);
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'stackdeck-scale-'));
const app = await build({
  config: { ...loadConfig({}), dataDir, webDir: null, authRateLimit: 100_000 },
});
const user = await app.services.users.create({
  email: 'scale@example.com',
  user_name: 'Scale',
  password_hash: await hashPassword('scale password 1'),
  confirmed: true,
});
const servers: { uuid: string; key: string }[] = [];
await app.db.transaction().execute(async (trx) => {
  for (let i = 0; i < count; i++) {
    const key = randomBytes(32).toString('base64url');
    const row = await trx
      .insertInto('servers')
      .values({
        uuid: crypto.randomUUID(),
        user_id: user.id,
        name: `scale-${i}`,
        connected: 0,
        is_available: 1,
        is_shared: 0,
        is_accessible: 1,
        agent_key_hash: sha256(key),
        created_at: new Date().toISOString(),
        updated_at: new Date().toISOString(),
      } as never)
      .returning(['uuid'])
      .executeTakeFirstOrThrow();
    servers.push({ uuid: row.uuid, key });
  }
});
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
const port = typeof address === 'object' && address ? address.port : 0;
app.config.publicUrl = `http://127.0.0.1:${port}`;
const token = await app.services.sessions.issue(user.id, { ip: '127.0.0.1', userAgent: 'bench' });
process.stdout.write(`${JSON.stringify({ port, token, servers })}\n`);
const stop = async () => {
  await app.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
