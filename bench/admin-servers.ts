/**
 * The admin's list of every server (issue 26): 100,000 servers of 1,000 owners, the first page
 * newest first, by name, filtered by state, searched by address and by owner, and the page
 * 2,000 deep; medians of 7 calls through the API (app.inject: the handler and its queries, no
 * socket), on SQLite and, when one answers, on PostgreSQL.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { build } from '../server/app';
import { loadConfig } from '../server/config';

export interface AdminServersRow {
  engine: string;
  query: string;
  ms: number;
  total: number;
}

const SERVERS = Number(process.env.ADMIN_SERVERS ?? 100_000);
const OWNERS = 1000;
const QUERIES = [
  ['first page, newest first', ''],
  ['by name', '?sort=name&order=ASC'],
  ['connected only', '?status=connected'],
  ['search an address', '?q=10.1.2'],
  ['owner contains', '?owner=owner-12'],
  ['page 2,000', '?page=2000'],
] as const;

async function measure(databaseUrl: string | null): Promise<AdminServersRow[]> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'stackdeck-bench-admin-'));
  const app = await build({ config: { ...loadConfig({}), dataDir, databaseUrl, webDir: null } });
  try {
    await app.ready();
    const admin = await app.services.users.create({
      email: 'bench-admin@example.com',
      user_name: 'Bench admin',
      password_hash: 'x',
      is_admin: true,
      confirmed: true,
    });
    const token = await app.services.sessions.issue(admin.id, {
      ip: '127.0.0.1',
      userAgent: 'bench',
    });
    const at = (i: number) => new Date(Date.UTC(2025, 0, 1) + i * 60_000).toISOString();
    const owners = Array.from({ length: OWNERS }, (_, i) => ({
      uuid: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
      email: `owner-${i}@example.com`,
      user_name: `Owner ${i}`,
      password_hash: 'x',
      is_admin: 0,
      is_admin_staff: 0,
      plan_id: 2,
      two_factor: 0,
      login_notif: 0,
      confirmed: 1,
      disabled: 0,
      created_at: at(0),
      updated_at: at(0),
    }));
    for (let i = 0; i < owners.length; i += 200)
      await app.db
        .insertInto('users')
        .values(owners.slice(i, i + 200))
        .execute();
    const ids = (
      await app.db.selectFrom('users').select('id').where('is_admin', '=', 0).execute()
    ).map((r) => r.id);
    for (let start = 0; start < SERVERS; start += 1000) {
      const rows = [];
      for (let i = start; i < Math.min(start + 1000, SERVERS); i++)
        rows.push({
          uuid: `10000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
          user_id: ids[i % ids.length]!,
          // A tenth wait for their agent (cs- names), a third are connected.
          name: i % 10 === 0 ? `cs-${i.toString(16)}` : `server-${i}`,
          ip4: `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`,
          connected: i % 3 === 0 ? 1 : 0,
          is_available: 1,
          is_shared: 0,
          is_accessible: 1,
          created_at: at(i),
          updated_at: at(i),
        });
      await app.db.insertInto('servers').values(rows).execute();
    }
    const out: AdminServersRow[] = [];
    for (const [label, query] of QUERIES) {
      const call = () =>
        app.inject({
          method: 'GET',
          url: `/api/v1/admin/servers${query}`,
          headers: { authorization: `Bearer ${token}` },
        });
      const first = await call();
      if (first.statusCode !== 200) throw new Error(`${query}: ${first.statusCode} ${first.body}`);
      const times: number[] = [];
      for (let i = 0; i < 7; i++) {
        const start = performance.now();
        await call();
        times.push(performance.now() - start);
      }
      out.push({
        engine: databaseUrl ? 'postgres' : 'sqlite',
        query: label,
        ms: times.sort((a, b) => a - b)[3]!,
        total: (first.json() as { total: number }).total,
      });
    }
    return out;
  } finally {
    await app.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function adminServersBench(postgresUrl: string | null): Promise<AdminServersRow[]> {
  return [...(await measure(null)), ...(postgresUrl ? await measure(postgresUrl) : [])];
}
