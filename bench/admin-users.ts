/**
 * The admin's list of users (issue 26): 100,000 accounts, the first page newest first, the page
 * 2,000 deep (50 a page), sorted by each sortable column both ways, and searched by an email
 * fragment and a name fragment; p50 and p99 of N calls through the API (app.inject: the handler
 * and its queries, no socket), on SQLite and, when one answers, on PostgreSQL.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { build } from '../server/app';
import { loadConfig } from '../server/config';

export interface AdminUsersRow {
  engine: string;
  query: string;
  p50Ms: number;
  p99Ms: number;
  total: number;
}

const USERS = Number(process.env.ADMIN_USERS ?? 100_000);
const REQUESTS = Number(process.env.ADMIN_USERS_REQUESTS ?? 100);
const QUERIES = [
  ['first page, newest first', '?perPage=50'],
  ['page 2,000 of 50', '?perPage=50&page=2000'],
  ['by created_at, oldest first', '?perPage=50&sort=created_at&order=ASC'],
  ['by email A-Z', '?perPage=50&sort=email&order=ASC'],
  ['by email Z-A', '?perPage=50&sort=email&order=DESC'],
  ['by name A-Z', '?perPage=50&sort=user_name&order=ASC'],
  ['by name Z-A', '?perPage=50&sort=user_name&order=DESC'],
  // About one account in a hundred matches each fragment.
  ['search an email fragment', '?perPage=50&q=42%40'],
  ['search a name fragment', '?perPage=50&q=moreno%207'],
  ['search, no match', '?perPage=50&q=nobody-here'],
] as const;

const FIRST_NAMES = ['Ada', 'Bo', 'Cora', 'Dev', 'Eli', 'Fay', 'Gus', 'Hana', 'Ivo', 'Jun'];
const LAST_NAMES = ['Moreno', 'Okafor', 'Lind', 'Tanaka', 'Novak', 'Haddad', 'Silva', 'Kerr'];

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

async function measure(databaseUrl: string | null): Promise<AdminUsersRow[]> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'stackdeck-bench-adminusers-'));
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
    const at = (i: number) => new Date(Date.UTC(2024, 0, 1) + i * 60_000).toISOString();
    // Bulk rows in one transaction, 500 a statement (under SQLite's 32,766 bound parameters).
    await app.db.transaction().execute(async (trx) => {
      for (let start = 0; start < USERS; start += 500) {
        const rows = [];
        for (let i = start; i < Math.min(start + 500, USERS); i++)
          rows.push({
            uuid: `20000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
            // Not in id order, so the email order is not the insertion order.
            email: `user-${(i * 7919) % USERS}@example-${i % 97}.com`,
            user_name: `${FIRST_NAMES[i % FIRST_NAMES.length]} ${LAST_NAMES[(i >> 3) % LAST_NAMES.length]} ${i % 1000}`,
            password_hash: 'x',
            is_admin: 0,
            is_admin_staff: i % 5000 === 0 ? 1 : 0,
            plan_id: 1 + (i % 3),
            two_factor: 0,
            login_notif: 0,
            confirmed: i % 4 === 0 ? 0 : 1,
            disabled: i % 50 === 0 ? 1 : 0,
            created_at: at(i),
            updated_at: at(i),
          });
        await trx.insertInto('users').values(rows).execute();
      }
    });
    // A tenth of the accounts have a photo (a small data URL), as `admin/user-images` reads them.
    const ids = (await app.db.selectFrom('users').select('id').orderBy('id').execute()).map(
      (row) => row.id,
    );
    await app.db.transaction().execute(async (trx) => {
      const photos = ids
        .filter((_, i) => i % 10 === 0)
        .map((user_id) => ({
          user_id,
          data: 'data:image/png;base64,iVBORw0KGgo=',
          updated_at: at(0),
        }));
      for (let i = 0; i < photos.length; i += 500)
        await trx
          .insertInto('user_photos')
          .values(photos.slice(i, i + 500))
          .execute();
    });
    // As an operator would after a bulk load (PostgreSQL plans from statistics).
    await sql`analyze`.execute(app.db);

    const out: AdminUsersRow[] = [];
    const get = (url: string) =>
      app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
    for (const [label, query] of QUERIES) {
      const first = await get(`/api/v1/admin/users${query}`);
      if (first.statusCode !== 200) throw new Error(`${query}: ${first.statusCode} ${first.body}`);
      const times: number[] = [];
      for (let i = 0; i < REQUESTS; i++) {
        const start = performance.now();
        await get(`/api/v1/admin/users${query}`);
        times.push(performance.now() - start);
      }
      times.sort((a, b) => a - b);
      out.push({
        engine: databaseUrl ? 'postgres' : 'sqlite',
        query: label,
        p50Ms: percentile(times, 50),
        p99Ms: percentile(times, 99),
        total: (first.json() as { total: number }).total,
      });
    }
    // The photos of a page as the list asks for them: one call for the 25 rows it shows.
    const page = (await get('/api/v1/admin/users?perPage=25')).json() as {
      data: { id: number }[];
    };
    const photosUrl = `/api/v1/admin/user-images?ids=${page.data.map((u) => u.id).join(',')}`;
    const photosFirst = await get(photosUrl);
    if (photosFirst.statusCode !== 200)
      throw new Error(`user-images: ${photosFirst.statusCode} ${photosFirst.body}`);
    const times: number[] = [];
    for (let i = 0; i < REQUESTS; i++) {
      const start = performance.now();
      await get(photosUrl);
      times.push(performance.now() - start);
    }
    times.sort((a, b) => a - b);
    out.push({
      engine: databaseUrl ? 'postgres' : 'sqlite',
      query: "the page's photos (user-images)",
      p50Ms: percentile(times, 50),
      p99Ms: percentile(times, 99),
      total: (photosFirst.json() as { data: unknown[] }).data.length,
    });
    return out;
  } finally {
    await app.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function adminUsersBench(postgresUrl: string | null): Promise<AdminUsersRow[]> {
  return [...(await measure(null)), ...(postgresUrl ? await measure(postgresUrl) : [])];
}

export const adminUsersRequests = REQUESTS;
