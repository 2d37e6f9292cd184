import type { Route } from '@playwright/test';
import { expect, test } from './fixtures';

/**
 * A page part that fails to load reloads the page (spec sections 2 and 8), once: a second
 * failure right after shows the error screen instead of reloading forever.
 */
test('a page part that fails to load reloads the page once, then says so', async ({ page }) => {
  let documentLoads = 0;
  page.on('request', (request) => {
    if (request.resourceType() === 'document') documentLoads += 1;
  });
  const blockLoginPage = (route: Route) => route.abort('failed');
  await page.route(/\/assets\/LoginPage-[^/]+\.js$/, blockLoginPage);
  // The page's timers on a clock the test runs forward: no reload waits on one.
  await page.clock.install();

  await page.goto('/login');
  await expect(page.getByText('A part of this page could not be loaded.')).toBeVisible();
  expect(documentLoads).toBe(2);
  await page.clock.runFor(10_000);
  await expect(page.getByText('A part of this page could not be loaded.')).toBeVisible();
  expect(documentLoads).toBe(2);
  await page.screenshot({ path: '.tmp/shots-shell/chunk-failed.png' });

  // The network is back: Reload brings the page, and the reload memory is cleared.
  await page.unroute(/\/assets\/LoginPage-[^/]+\.js$/, blockLoginPage);
  await page.getByRole('button', { name: 'Reload' }).click();
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
  expect(await page.evaluate(() => sessionStorage.getItem('stackdeck.chunkReloadAt'))).toBeNull();
});
