import { type Page } from '@playwright/test';
import { expect, test, openSignedIn } from './fixtures';

const SHOTS = '.tmp/shots-account';

/** Full-page screenshot from the top, where the shell's sticky header and sidebar belong. */
async function shot(page: Page, name: string) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

/** A 1x1 PNG: small, valid, and easy to recognise in the data URL. */
const PNG_1PX = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

async function openProfile(page: Page, email: string, password: string) {
  await openSignedIn(page, email, password);
  await expect(page).toHaveURL(/\/(dashboard|no-servers)$/);
  await page.goto('/my-profile');
  await expect(page.getByRole('region', { name: 'Profile details' })).toBeVisible();
}

test('profile fields are saved and still there after a reload', async ({ page, api }) => {
  const account = await api.account();
  await openProfile(page, account.email, account.password);
  const details = page.getByRole('region', { name: 'Profile details' });

  await details.getByLabel('Name', { exact: true }).fill('Ada Lovelace');
  await details.getByLabel('Company').fill('Analytical Engines Ltd');
  await details.getByLabel('Address line 1').fill('12 St James Square');
  await details.getByLabel('City').fill('London');
  await details.getByLabel('Postal code').fill('SW1Y 4JH');
  await details.getByLabel('Tax number').fill('GB123456789');
  await details.getByLabel('Country').fill('United King');
  await page.getByRole('option', { name: /United Kingdom/ }).click();
  await details.getByLabel('Time zone').fill('Europe/Lon');
  await page.getByRole('option', { name: /Europe\/London/ }).click();
  await details.getByLabel('Email me on every sign-in').check();
  await shot(page, 'profile-filled');
  await details.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByText('Profile saved')).toBeVisible();

  await page.reload();
  const reloaded = page.getByRole('region', { name: 'Profile details' });
  await expect(reloaded.getByLabel('Name', { exact: true })).toHaveValue('Ada Lovelace');
  await expect(reloaded.getByLabel('Company')).toHaveValue('Analytical Engines Ltd');
  await expect(reloaded.getByLabel('City')).toHaveValue('London');
  await expect(reloaded.getByLabel('Postal code')).toHaveValue('SW1Y 4JH');
  await expect(reloaded.getByLabel('Country')).toHaveValue(/United Kingdom/);
  await expect(reloaded.getByLabel('Time zone')).toHaveValue(/Europe\/London/);
  await expect(reloaded.getByLabel('Email me on every sign-in')).toBeChecked();

  // What the page shows is what the API stored.
  const { token, id } = await api.login(account.email, account.password);
  const stored = await (
    await page.request.get(`/api/v1/users/${id}`, { headers: { authorization: `Bearer ${token}` } })
  ).json();
  expect(stored).toMatchObject({
    user_name: 'Ada Lovelace',
    CompanyName: 'Analytical Engines Ltd',
    Addr_1: '12 St James Square',
    Country: 'GB',
    TimeZone: 'Europe/London',
    TaxNum: 'GB123456789',
    LoginNotif: true,
  });

  // A phone: the cards stack and every field stays usable.
  await page.setViewportSize({ width: 390, height: 844 });
  await reloaded.getByLabel('City').scrollIntoViewIfNeeded();
  const box = await reloaded.getByLabel('City').boundingBox();
  expect(box!.x + box!.width).toBeLessThanOrEqual(390);
  await shot(page, 'profile-mobile');
});

test('invalid input is refused on its field and nothing typed is lost', async ({ page, api }) => {
  const account = await api.account();
  await openProfile(page, account.email, account.password);
  const details = page.getByRole('region', { name: 'Profile details' });

  await details.getByLabel('City').fill('Paris');
  await details.getByLabel('Name', { exact: true }).fill('A');
  await details.getByRole('button', { name: 'Save changes' }).click();
  await expect(details.getByText('At least 2 characters')).toBeVisible();
  await expect(details.getByLabel('City')).toHaveValue('Paris');

  // The server's own 400 lands on the field too: a wrong current password.
  const password = page.getByRole('region', { name: 'Password' });
  await password.getByLabel('Current password', { exact: true }).fill('not my password at all');
  await password.getByLabel('New password', { exact: true }).fill('another long password');
  await password.getByLabel('Repeat the new password').fill('another long password');
  await password.getByRole('button', { name: 'Change password' }).click();
  await expect(password.getByText('Current password is incorrect')).toBeVisible();
  await expect(password.getByLabel('New password', { exact: true })).toHaveValue(
    'another long password',
  );
  await shot(page, 'profile-errors');
});

test('a photo is uploaded, shown after a reload, and removed', async ({ page, api }) => {
  const account = await api.account({ user_name: 'Photo Person' });
  await openProfile(page, account.email, account.password);
  const card = page.getByRole('region', { name: 'Photo and account' });

  // Too big: refused before any upload.
  await card.getByLabel('Photo file').setInputFiles({
    name: 'huge.png',
    mimeType: 'image/png',
    buffer: Buffer.alloc(1024 * 1024 + 1, 1),
  });
  await expect(card.getByText(/must be 1 MB or smaller/)).toBeVisible();

  await card.getByLabel('Photo file').setInputFiles({
    name: 'me.png',
    mimeType: 'image/png',
    buffer: PNG_1PX,
  });
  await expect(page.getByText('Photo updated')).toBeVisible();
  const photo = card.getByRole('img', { name: 'Photo of Photo Person' });
  await expect(photo).toHaveAttribute('src', /^data:image\/png;base64,/);
  // The header's avatar follows without a reload.
  await expect(page.locator('header img[src^="data:image/png"]')).toBeVisible();

  await page.reload();
  await expect(card.getByRole('img', { name: 'Photo of Photo Person' })).toBeVisible();
  await shot(page, 'profile-photo');

  await card.getByRole('button', { name: 'Remove' }).click();
  await expect(page.getByText('Photo removed')).toBeVisible();
  await expect(card.getByRole('img', { name: 'Photo of Photo Person' })).toHaveCount(0);
  await expect(card.getByRole('button', { name: 'Upload photo' })).toBeVisible();
});
