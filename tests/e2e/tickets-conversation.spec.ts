import { E2E_ADMIN, expect, signInAsNewUser, test, openSignedIn } from './fixtures';

const SHOTS = '.tmp/shots-tickets';

/** A 1x1 PNG. */
const PNG_1PX = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

test('a user opens a ticket, the admin answers it, the user reads the answer and closes it', async ({
  page,
  browser,
  api,
}) => {
  const account = await signInAsNewUser(page, api);
  const subject = `Site down ${Date.now().toString(36)}`;

  // The empty list first.
  await page.goto('/ticket-list');
  await expect(page.getByText('No tickets yet')).toBeVisible();
  await page.getByRole('link', { name: 'Open a ticket' }).click();
  await expect(page).toHaveURL(/\/create-ticket$/);

  // Submitting empty shows the shared schema's messages.
  await page.getByRole('button', { name: 'Open ticket' }).click();
  await expect(page.getByText('At least 3 characters')).toBeVisible();

  await page.getByRole('textbox', { name: 'Subject' }).fill(subject);
  await page.getByLabel('Priority').click();
  await page.getByRole('option', { name: 'Urgent' }).click();
  await page
    .getByRole('textbox', { name: 'Message' })
    .fill('My site answers 502 since this morning.');
  await page.getByTestId('attachment-input').setInputFiles([
    { name: 'screenshot.png', mimeType: 'image/png', buffer: PNG_1PX },
    { name: 'page.html', mimeType: 'text/html', buffer: Buffer.from('<b>x</b>') },
  ]);
  // The HTML file is refused on the page, the PNG kept. (The empty submit's "form is not valid"
  // notification may still be up on a slow machine: look in the form's own region.)
  await expect(page.getByRole('region', { name: 'New ticket' }).getByRole('alert')).toContainText(
    'page.html',
  );
  await expect(page.getByRole('button', { name: 'screenshot.png' })).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/create.png`, fullPage: true });
  await page.getByRole('button', { name: 'Open ticket' }).click();

  await expect(page).toHaveURL(/\/ticket-response\/\d+$/);
  const ticketId = Number(/(\d+)$/.exec(page.url())![1]);
  await expect(page.getByRole('heading', { name: `#${ticketId} ${subject}` })).toBeVisible();
  await expect(page.getByTestId('ticket-status')).toHaveText('Open');
  await expect(page.getByRole('button', { name: /screenshot\.png/ })).toBeVisible();
  // The admin's mailbox is shared with the other specs running meanwhile (a referral payout
  // mails the admins too): this ticket's mail is among what arrived, not necessarily the last.
  await expect
    .poll(async () => (await api.mailsTo(E2E_ADMIN.email)).map((mail) => mail.subject))
    .toContain(`[Ticket #${ticketId}] New ticket: ${subject}`);

  // The admin, in their own browser, finds it on the desk and answers.
  const adminContext = await browser.newContext({ baseURL: test.info().project.use.baseURL });
  const admin = await adminContext.newPage();
  await openSignedIn(admin, E2E_ADMIN.email, E2E_ADMIN.password);
  await expect(admin).not.toHaveURL(/\/login/);
  await admin.goto('/ticket-list');
  await expect(admin.getByRole('heading', { name: 'Support tickets (all users)' })).toBeVisible();
  await admin.getByLabel("User's email").fill(account.email);
  const row = admin.getByRole('row', { name: new RegExp(subject) });
  await expect(row).toContainText(account.email);
  await row.getByRole('link', { name: subject }).click();
  await expect(admin).toHaveURL(new RegExp(`/ticket-response/${ticketId}$`));
  // The user's attachment downloads for the admin, under its own name.
  const download = admin.waitForEvent('download');
  await admin.getByRole('button', { name: /screenshot\.png/ }).click();
  expect((await download).suggestedFilename()).toBe('screenshot.png');
  await admin.getByLabel('Your reply').fill('Restarted PHP-FPM; it answers again.');
  await admin.getByRole('button', { name: 'Send reply' }).click();
  await expect(admin.getByText('Reply sent.')).toBeVisible();
  await expect(admin.getByTestId('ticket-message')).toHaveCount(2);
  await adminContext.close();

  const toUser = await api.lastMail(account.email);
  expect(toUser.subject).toBe(`[Ticket #${ticketId}] ${subject}`);
  expect(toUser.text).toContain('Restarted PHP-FPM');

  // The user sees the answer, then closes the ticket after confirming.
  await page.reload();
  await expect(page.getByTestId('ticket-status')).toHaveText('Answered');
  const answer = page.getByTestId('ticket-message').nth(1);
  await expect(answer).toContainText('Restarted PHP-FPM; it answers again.');
  await expect(answer).toContainText('(Support)');
  await page.screenshot({ path: `${SHOTS}/answered.png`, fullPage: true });
  await page.getByRole('button', { name: 'Close ticket' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Close ticket' }).click();
  await expect(page.getByText('Ticket closed.')).toBeVisible();
  await expect(page.getByTestId('ticket-status')).toHaveText('Closed');
  await expect(page.getByText('This ticket is closed. Reopen it to write again.')).toBeVisible();

  // The list shows it under the Closed filter, and not under Open.
  await page.goto('/ticket-list');
  await page.getByRole('combobox', { name: 'Status' }).click();
  await page.getByRole('option', { name: 'Closed' }).click();
  await expect(page.getByRole('row', { name: new RegExp(subject) })).toBeVisible();
  await page.getByRole('combobox', { name: 'Status' }).click();
  await page.getByRole('option', { name: 'Open' }).click();
  await expect(page.getByText('No tickets match')).toBeVisible();
});
