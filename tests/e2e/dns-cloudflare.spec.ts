import { type FakeCloudflare, startFakeCloudflare } from '../fakes/cloudflare';
import { expect, signInAsNewUser, test } from './fixtures';

/**
 * DNS through the pages with Cloudflare, against the local fake of its API v4 the panel was
 * started with (CLOUDFLARE_API_URL, playwright.config.ts): connect with a token, add a zone,
 * add, change and delete an MX record, each change checked in the fake's own state.
 */
const PORT = Number(process.env.E2E_PORT ?? 4173) + 1;
let cf: FakeCloudflare;
test.beforeAll(async () => {
  cf = await startFakeCloudflare(undefined, PORT);
});
test.afterAll(async () => {
  await cf?.close();
});

const recordsAt = (zone: string) =>
  [...([...cf.zones.values()].find((z) => z.name === zone)?.records.values() ?? [])].map((r) => ({
    type: r.type,
    name: r.name,
    content: r.content,
    priority: r.priority,
    ttl: r.ttl,
  }));

test('a Cloudflare account, a zone and an MX record changed and deleted', async ({ page, api }) => {
  await signInAsNewUser(page, api);
  await page.goto('/dns');
  await page.getByRole('button', { name: 'Cloudflare' }).click();
  await page.getByLabel('Label').fill('Edge');
  await page.getByLabel('API token').fill('not-the-token-1234');
  await page.getByRole('button', { name: 'Connect Cloudflare' }).click();
  await expect(
    page.getByText('Cloudflare refused the API token: Invalid API Token (1000); nothing was saved'),
  ).toBeVisible();
  await page.getByLabel('API token').fill(cf.token);
  await page.getByRole('button', { name: 'Connect Cloudflare' }).click();
  await expect(page).toHaveURL(/\/dns-records/);

  await page.getByLabel('New zone').fill('cf-e2e.test');
  await page.getByRole('button', { name: 'Add zone' }).click();
  await expect(page.getByRole('heading', { name: 'Records of cf-e2e.test' })).toBeVisible();
  expect([...cf.zones.values()].map((z) => z.name)).toEqual(['cf-e2e.test']);

  await page.getByRole('link', { name: 'Add record' }).click();
  await expect(page.getByRole('heading', { name: 'Add a record to cf-e2e.test' })).toBeVisible();
  await page.getByRole('combobox', { name: 'Type' }).click();
  await page.getByRole('option', { name: 'MX', exact: true }).click();
  await page.getByLabel('Name').fill('@');
  await page.getByLabel('Mail server').fill('mail.cf-e2e.test');
  await page.getByLabel('Priority').fill('20');
  await page.getByRole('button', { name: 'Add record' }).click();
  await expect(page).toHaveURL(/\/dns-records\?label=Edge&zone=\d+/);
  await expect(page.getByRole('row', { name: /MX\s+@\s+.*mail\.cf-e2e\.test/ })).toBeVisible();
  expect(recordsAt('cf-e2e.test')).toEqual([
    { type: 'MX', name: 'cf-e2e.test', content: 'mail.cf-e2e.test', priority: 20, ttl: 3600 },
  ]);

  await page.getByRole('button', { name: 'Edit MX @' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Priority').fill('5');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toHaveCount(0);
  await expect.poll(() => recordsAt('cf-e2e.test')[0]?.priority).toBe(5);

  await page.getByRole('button', { name: 'Delete MX @' }).click();
  await page.getByRole('button', { name: 'Delete', exact: true }).click();
  // Each state in turn, so a slow step says which: Cloudflare's records, then the list read
  // again (the page refetches once the panel has answered).
  await expect.poll(() => recordsAt('cf-e2e.test'), { timeout: 30_000 }).toEqual([]);
  await expect(page.getByRole('button', { name: 'Edit MX @' })).toHaveCount(0, { timeout: 30_000 });
});
