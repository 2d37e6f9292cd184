import { type PdnsServer, startPdns } from '../dns/pdns';
import { expect, signInAsNewUser, test } from './fixtures';

/**
 * DNS through the pages against a real PowerDNS started by this spec: connect the account on
 * /dns, create a zone and an A record on /dns-records and /add-dns/{id}, and `dig` answers it.
 */
let pdns: PdnsServer;
test.beforeAll(async () => {
  pdns = await startPdns();
});
test.afterAll(async () => {
  await pdns?.stop();
});

test('a PowerDNS account, a zone and an A record that dig answers', async ({ page, api }) => {
  await signInAsNewUser(page, api);

  // No DNS account yet: /dns-records sends the user to /dns.
  await page.goto('/dns-records');
  await expect(page).toHaveURL(/\/dns$/);
  await expect(page.getByRole('heading', { name: 'Connect a DNS provider' })).toBeVisible();

  // A wrong key is refused with PowerDNS's answer, and nothing is saved.
  await page.getByLabel('Label').fill('Main DNS');
  await page.getByLabel('API address').fill(pdns.apiUrl);
  await page.getByLabel('API key').fill('not-the-right-key');
  await page.getByRole('button', { name: 'Connect PowerDNS' }).click();
  await expect(page.getByText('PowerDNS refused the API key; nothing was saved')).toBeVisible();
  await expect(page).toHaveURL(/\/dns$/);

  await page.getByLabel('API key').fill(pdns.apiKey);
  await page.getByRole('button', { name: 'Connect PowerDNS' }).click();
  await expect(page).toHaveURL(/\/dns-records/);
  await expect(page.getByText('No zones yet')).toBeVisible();

  // With an account, /dns now opens /dns-records.
  await page.goto('/dns');
  await expect(page).toHaveURL(/\/dns-records/);

  // A zone.
  await page.getByLabel('New zone').fill('not a domain');
  await page.getByRole('button', { name: 'Add zone' }).click();
  await expect(page.getByText('A host name like mail.example.com')).toBeVisible();
  await page.getByLabel('New zone').fill('e2e-zone.test');
  await page.getByRole('button', { name: 'Add zone' }).click();
  await expect(page.getByRole('heading', { name: 'Records of e2e-zone.test' })).toBeVisible();
  expect((await pdns.dig('e2e-zone.test', 'NS')).sort()).toEqual([
    'ns1.e2e-zone.test.',
    'ns2.e2e-zone.test.',
  ]);

  // An A record through /add-dns/{id}; a bad address is refused by the A schema first.
  await page.getByRole('link', { name: 'Add record' }).click();
  await expect(page).toHaveURL(/\/add-dns\/\d+\?label=Main(%20|\+)DNS/);
  await expect(page.getByRole('heading', { name: 'Add a record to e2e-zone.test' })).toBeVisible();
  await page.getByLabel('Name').fill('www');
  await page.getByLabel('IPv4 address').fill('203.0.113');
  await page.getByRole('button', { name: 'Add record' }).click();
  await expect(page.getByText('An IPv4 address like 203.0.113.10')).toBeVisible();
  await page.getByLabel('IPv4 address').fill('203.0.113.44');
  await page.getByRole('button', { name: 'Add record' }).click();
  await expect(page).toHaveURL(/\/dns-records\?label=Main(%20|\+)DNS&zone=\d+/);
  const row = page.getByRole('row', { name: /A\s+www\s+203\.0\.113\.44/ });
  await expect(row).toBeVisible();
  expect(await pdns.dig('www.e2e-zone.test')).toEqual(['203.0.113.44']);
  await page.screenshot({ path: '.tmp/e2e-dns/dns-records.png', fullPage: true });

  // Change it in the edit dialog, then delete it after confirming.
  await page.getByRole('button', { name: 'Edit A www' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('IPv4 address').fill('198.51.100.45');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('row', { name: /A\s+www\s+198\.51\.100\.45/ })).toBeVisible();
  expect(await pdns.dig('www.e2e-zone.test')).toEqual(['198.51.100.45']);

  await page.getByRole('button', { name: 'Delete A www' }).click();
  await page.getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Edit A www' })).toHaveCount(0);
  // The zone's own NS records stay.
  await expect(page.getByRole('button', { name: 'Edit NS @' })).toHaveCount(2);
  expect(await pdns.dig('www.e2e-zone.test')).toEqual([]);

  // The credential shows masked on /3rd-party-integration.
  await page.goto('/3rd-party-integration');
  const card = page.getByRole('article', { name: 'PowerDNS' });
  await expect(card.getByText(`API key ••••${pdns.apiKey.slice(-4)}`)).toBeVisible();
  await expect(page.getByText(pdns.apiKey)).toHaveCount(0);
});
