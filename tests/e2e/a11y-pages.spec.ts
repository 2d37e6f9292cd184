import path from 'node:path';
import Database from 'better-sqlite3';
import type { APIRequestContext, Page } from '@playwright/test';
import { routes } from '../../src/routes/table';
import type { RouteAccess, RouteDef } from '../../src/routes/types';
import { type AxeFinding, axeReport, blockingViolations } from './axe';
import { type Api, E2E_ADMIN, expect, signIn, test } from './fixtures';

/**
 * Issue 22: every page of the route table (src/routes/table.ts, the features' routes.ts
 * included), opened as the role it is for, with a server and web apps of its own so that the
 * pages show their data, has no serious or critical WCAG 2.1 A/AA violation by axe-core.
 * The tests of this file share the two workers: each opens its part of the pages once.
 */
test.describe.configure({ mode: 'parallel', timeout: 600_000 });

const DB_FILE = path.join(`.tmp/e2e-data-${process.env.E2E_PORT ?? 4173}`, 'stackdeck.db');

/** The ids the paths' parameters take. */
interface Ids {
  server: number;
  webApp: number;
  wordpress: number;
  team: number;
  ticket: number;
  release: number;
  extension: number;
  mail: number;
  /** The user's open invoice (a subscription to Basic by bank transfer). */
  invoice: number;
  /** The account the admin pages look at (its profile). */
  user: number;
  uuid: string;
}

/** Parameters that are not the server: the page's own record. */
const OWN_ID: Record<string, (ids: Ids) => number | string> = {
  '/edit-team/:id': (ids) => ids.team,
  '/ticket-response/:id': (ids) => ids.ticket,
  '/admin/edit-app-release/:id': (ids) => ids.release,
  '/admin/edit-extension/:id': (ids) => ids.extension,
  '/admin/outbox/:id': (ids) => ids.mail,
  '/admin/user-profile/:id': (ids) => ids.user,
  '/payment-invoice/:id': (ids) => ids.invoice,
  '/payment/:id': (ids) => ids.invoice,
  // The Basic plan of spec s.9.
  '/admin/add-main-package/:id': () => 3,
  '/wordpress-manager/:serverId/:webAppId': (ids) => `${ids.server}/${ids.wordpress}`,
};

function addressOf(route: RouteDef, ids: Ids): string {
  const own = OWN_ID[route.path];
  if (own) return route.path.replace(/:[^/]+(\/:[^/]+)?$/, String(own(ids)));
  return route.path
    .replace(':serverId', String(ids.server))
    .replace(':webAppId', String(ids.webApp))
    .replace(':uuid', ids.uuid)
    .replace(':id', String(ids.server));
}

const routesFor = (...access: RouteAccess[]) => routes.filter((r) => access.includes(r.access));

function withDb<T>(run: (db: Database.Database) => T): T {
  const db = new Database(DB_FILE);
  try {
    return run(db);
  } finally {
    db.close();
  }
}

/** A web app of the server, written where the panel reads it (its install needs an agent). */
function addWebApp(serverId: number, name: string, type: string): number {
  const now = new Date().toISOString();
  return withDb((db) => {
    const { lastInsertRowid } = db
      .prepare(
        `INSERT INTO webapps (server_id, status, name, webapp_type, stack_type, php_version, domains,
           web_root, php_settings, sys_user, created_at, updated_at)
         VALUES (?, 'active', ?, ?, 'nginx', '8.2', ?, 'public', '{}', ?, ?, ?)`,
      )
      .run(serverId, name, type, JSON.stringify([`${name}.example`]), name, now, now);
    const id = Number(lastInsertRowid);
    db.prepare('INSERT INTO webapp_domains (server_id, webapp_id, name) VALUES (?, ?, ?)').run(
      serverId,
      id,
      `${name}.example`,
    );
    return id;
  });
}

async function call(request: APIRequestContext, token: string, url: string, data?: object) {
  const headers = { authorization: `Bearer ${token}` };
  const res = data
    ? await request.post(`/api/v1/${url}`, { headers, data })
    : await request.get(`/api/v1/${url}`, { headers });
  expect(res.status(), `${url}: ${await res.text()}`).toBeLessThan(300);
  return (await res.json()) as { id?: number; data?: { id: number }[] };
}

/** A user with a server, two web apps, a team and a ticket; the admin's first records. */
async function makeIds(api: Api, request: APIRequestContext) {
  const account = await api.account();
  const { token } = await api.login(account.email, account.password);
  const uid = account.id;
  const server = (
    await call(request, token, `servers/users/${uid}?action=create`, { name: 'a11y-1' })
  ).id!;
  const team = (await call(request, token, `teams/users/${uid}`, { name: 'A11y team' })).id!;
  const ticket = (
    await call(request, token, `supportcs/users/${uid}`, {
      subject: 'Screen reader check',
      message: 'Every page read aloud.',
    })
  ).id!;
  const subscribed = (await call(
    request,
    token,
    `subscription/users/${uid}?plan_id=3&type=monthly&pay_type=manual`,
    {},
  )) as { invoice?: { id: number } };
  const admin = await api.admin();
  const first = async (list: string) =>
    (await call(request, admin, `${list}?perPage=1`)).data?.[0]?.id ?? 1;
  const ids: Ids = {
    server,
    webApp: addWebApp(server, `a11y${uid}`, 'custom'),
    wordpress: addWebApp(server, `a11ywp${uid}`, 'wordpress'),
    team,
    ticket,
    release: await first('admin/app-releases'),
    extension: await first('admin/easyphp'),
    mail: await first('admin/outbox'),
    invoice: subscribed.invoice!.id,
    user: uid,
    uuid: account.uuid,
  };
  return { account, ids };
}

/** Opens each route and runs axe on the page once it has settled. */
async function audit(page: Page, list: readonly RouteDef[], ids: Ids): Promise<AxeFinding[]> {
  const findings: AxeFinding[] = [];
  expect(list.length).toBeGreaterThan(0);
  for (const route of list) {
    await page.goto(addressOf(route, ids));
    await page.waitForLoadState('networkidle');
    await expect(page.locator('#root')).not.toBeEmpty();
    findings.push(...(await blockingViolations(page, route.path)));
  }
  return findings;
}

function expectNone(findings: AxeFinding[]) {
  expect(findings, axeReport(findings)).toEqual([]);
}

test('signed out: the public and error pages', async ({ page, api, request }) => {
  const { ids } = await makeIds(api, request);
  expectNone(await audit(page, routesFor('public', 'open'), ids));
});

/** The user's pages in three parts of similar length: account, server and app pages. */
const USER_PARTS: [string, (route: RouteDef) => boolean][] = [
  ['the account pages', (r) => r.layout === 'profile' || r.layout === 'main'],
  ['the pages of a server', (r) => r.layout === 'webApp'],
  ['the pages of a web app', (r) => !['profile', 'main', 'webApp'].includes(r.layout)],
];

for (const [part, inPart] of USER_PARTS) {
  test(`a user: ${part}`, async ({ page, api, request }) => {
    const { account, ids } = await makeIds(api, request);
    await signIn(page, account.email, account.password);
    await expect(page).toHaveURL(/\/dashboard$/);
    expectNone(await audit(page, routesFor('user').filter(inPart), ids));
  });
}

test('an admin: the admin pages', async ({ page, api, request }) => {
  const { ids } = await makeIds(api, request);
  await signIn(page, E2E_ADMIN.email, E2E_ADMIN.password);
  await expect(page).toHaveURL(/\/admin\/dashboard$/);
  expectNone(await audit(page, routesFor('admin', 'staff'), ids));
});
