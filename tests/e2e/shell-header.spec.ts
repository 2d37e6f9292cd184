import { E2E_ADMIN, expect, test, signInAsNewUser, openSignedIn } from './fixtures';

const SHOTS = '.tmp/shots-shell';

test('a user’s header: name, plan, shortcuts, footer', async ({ page, api }) => {
  const account = await api.account({ user_name: 'Linus Header' });
  await openSignedIn(page, account.email, account.password);
  await expect(page).toHaveURL(/\/(dashboard|no-servers)$/);
  await page.goto('/my-profile');

  await expect(page.getByTestId('account-name')).toHaveText('Linus Header');
  await expect(page.getByTestId('plan-name')).toHaveText('Trial');
  // Upgrade to Pro (spec s.6: non-admins whose plan is not Pro) leads to /pricing, which exists
  // since issue 26. The Backup shortcut is there since /backup is (issue 24).
  await expect(page.getByRole('link', { name: 'Upgrade to Pro' })).toHaveAttribute(
    'href',
    '/pricing',
  );
  const shortcuts = page.getByRole('navigation', { name: 'Shortcuts' }).getByRole('link');
  await expect(shortcuts).toHaveCount(5);
  const targets = await shortcuts.evaluateAll((links) =>
    links.map((link) => link.getAttribute('href')),
  );
  expect(targets).toEqual(['/dns', '/backup', '/team', '/ticket-list', '/my-profile']);
  await expect(
    page.getByRole('navigation', { name: 'Shortcuts' }).getByRole('link', { name: 'Support' }),
  ).toBeVisible();

  const footer = page.getByRole('contentinfo');
  await expect(footer).toContainText(`© ${new Date().getFullYear()} Stackdeck`);
  await expect(footer.getByRole('link')).toHaveText(['Dashboard', 'License', 'Changelog']);
  await expect(footer.getByRole('link', { name: 'License' })).toHaveAttribute(
    'href',
    '/license.txt',
  );
  await expect(footer.getByRole('link', { name: 'Changelog' })).toHaveAttribute(
    'href',
    '/changelog.txt',
  );
  await page.screenshot({ path: `${SHOTS}/profile.png` });
});

test('an admin’s header shows Admin and no upgrade offer', async ({ page }) => {
  await openSignedIn(page, E2E_ADMIN.email, E2E_ADMIN.password);
  await expect(page).toHaveURL(/\/admin\/dashboard$/);
  await expect(page.getByTestId('plan-name')).toHaveText('Admin');
  await expect(page.getByRole('link', { name: 'Upgrade to Pro' })).toHaveCount(0);
});

test('the language selector switches the shell’s strings and keeps the choice', async ({
  page,
  api,
}) => {
  await signInAsNewUser(page, api);
  await page.goto('/my-profile');
  const sidebar = page.getByTestId('sidebar');
  await expect(sidebar.getByRole('link', { name: 'Login Activity' })).toBeVisible();

  await page.getByRole('button', { name: /^Language/ }).click();
  await expect(page.getByRole('menuitem')).toHaveText([
    'English',
    'Deutsch',
    'Español',
    'Italiano',
  ]);
  await page.getByRole('menuitem', { name: 'Deutsch' }).click();
  await expect(sidebar.getByRole('link', { name: 'Anmeldeaktivität' })).toBeVisible();
  // An entry a feature declares (features/referrals/menu.ts) carries its own German words.
  await expect(sidebar.getByRole('link', { name: 'Freunde werben' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Mein Profil' }).first()).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/profile-german.png` });

  await page.reload();
  await expect(sidebar.getByRole('link', { name: 'Anmeldeaktivität' })).toBeVisible();
  await page.getByRole('button', { name: /^Sprache/ }).click();
  await page.getByRole('menuitem', { name: 'Italiano' }).click();
  await expect(sidebar.getByRole('link', { name: 'Attività di accesso' })).toBeVisible();
  await expect(sidebar.getByRole('link', { name: 'Invita un amico' })).toBeVisible();
  // The language is the device's choice: it outlives the sign-in.
  await page.getByRole('button', { name: 'Menu account' }).click();
  await page.getByRole('menuitem', { name: 'Esci' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('heading', { name: 'Accedi a Stackdeck' })).toBeVisible();
});

test('the sign-in page has the language selector too', async ({ page }) => {
  await page.goto('/login');
  await page.getByRole('button', { name: /^Language/ }).click();
  await page.getByRole('menuitem', { name: 'Español' }).click();
  await expect(page.getByRole('heading', { name: 'Inicie sesión en Stackdeck' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Iniciar sesión' })).toBeVisible();
});

test('the sidebar collapses and expands; on phones it is a drawer', async ({ page, api }) => {
  await signInAsNewUser(page, api);
  await page.goto('/my-profile');
  const sidebar = page.getByTestId('sidebar');
  await expect(sidebar.getByText('Refer a Friend')).toBeVisible();
  await sidebar.getByRole('button', { name: 'Collapse navigation' }).click();
  await expect(sidebar.getByText('Refer a Friend')).toHaveCount(0);
  await expect(sidebar.getByRole('link', { name: 'Refer a Friend' })).toBeVisible();
  expect((await sidebar.boundingBox())?.width).toBeLessThan(100);
  await sidebar.getByRole('button', { name: 'Expand navigation' }).click();
  await expect(sidebar.getByText('Refer a Friend')).toBeVisible();

  await page.setViewportSize({ width: 390, height: 844 });
  const drawer = page.getByTestId('mobile-sidebar');
  await expect(drawer).toBeHidden();
  await page.getByRole('button', { name: 'Open navigation' }).click();
  await expect(drawer).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/mobile-sidebar.png` });
  await drawer.getByRole('link', { name: 'Login Activity' }).click();
  await expect(page).toHaveURL(/\/login-activity$/);
  await expect(drawer).toBeHidden();
  await page.screenshot({ path: `${SHOTS}/mobile-login-activity.png` });
});

test('log out goes to /login and the token is gone', async ({ page, api }) => {
  await signInAsNewUser(page, api);
  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menuitem', { name: 'Log out' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await page.goto('/my-profile');
  await expect(page).toHaveURL(/\/register$/);
});

test('an admin acting as a user sees the banner and switches back', async ({ page, api }) => {
  const account = await api.account({ user_name: 'Acted Upon' });
  await openSignedIn(page, E2E_ADMIN.email, E2E_ADMIN.password);
  await expect(page).toHaveURL(/\/admin\/dashboard$/);
  await page.goto('/admin/users');
  await page.getByRole('button', { name: `Act as ${account.email}` }).click();
  await expect(page).toHaveURL(/\/(dashboard|no-servers)$/);
  await expect(page.getByText('You are acting as Acted Upon')).toBeVisible();
  await expect(page.getByTestId('plan-name')).toHaveText('Trial');
  await page.screenshot({ path: `${SHOTS}/acting.png` });

  await page.getByRole('button', { name: 'Switch back' }).click();
  await expect(page).toHaveURL(/\/admin\/users$/);
  await expect(page.getByText(/You are acting as/)).toHaveCount(0);
  await expect(page.getByTestId('plan-name')).toHaveText('Admin');
});
