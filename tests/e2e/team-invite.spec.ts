import type { Page } from '@playwright/test';
import { expect, test, openSignedIn } from './fixtures';

/** Teams: an owner creates a team, shares a server, invites a member who accepts from the mail. */

async function signOut(page: Page) {
  await page.evaluate(() => window.localStorage.clear());
  await page.context().clearCookies();
}

test('owner creates a team and invites a member who then sees the shared server', async ({
  page,
  api,
  request,
}) => {
  const owner = await api.account({ user_name: 'Olivia Owner' });
  const member = await api.account({ user_name: 'Max Member' });
  const { token } = await api.login(owner.email, owner.password);
  // A server row made through the API, as the connect page does (no agent needed).
  const created = await request.post(`/api/v1/servers/users/${owner.id}?action=create`, {
    headers: { authorization: `Bearer ${token}` },
    data: { name: 'team-web' },
  });
  expect(created.status(), await created.text()).toBe(200);

  // The owner has no team: /team-manager sends to /team, which explains teams.
  await openSignedIn(page, owner.email, owner.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto('/team-manager');
  await expect(page).toHaveURL(/\/team$/);
  await expect(page.getByText('Work on your servers together')).toBeVisible();
  await page.getByRole('link', { name: 'Create your first team' }).click();
  await expect(page).toHaveURL(/\/create-team$/);
  await page.getByLabel('Team name').fill('Acme Ops');
  await page.getByRole('button', { name: 'Create team' }).click();
  await expect(page).toHaveURL(/\/team-manager$/);
  const team = page.getByRole('region', { name: 'Team Acme Ops' });
  await expect(team).toBeVisible();
  await expect(team.getByText('You own this team')).toBeVisible();
  // With a team, /team goes to /team-manager.
  await page.goto('/team');
  await expect(page).toHaveURL(/\/team-manager$/);

  // Share the server and invite the member.
  await team.getByLabel('Share a server').click();
  await page.getByRole('option', { name: 'team-web' }).click();
  await team.getByRole('button', { name: 'Share', exact: true }).click();
  await expect(team.getByRole('list', { name: 'Servers shared with Acme Ops' })).toContainText(
    'team-web',
  );
  await team.getByLabel('Invite by email').fill(member.email);
  await team.getByRole('button', { name: 'Invite' }).click();
  await expect(team.getByRole('list', { name: 'Pending invitations of Acme Ops' })).toContainText(
    member.email,
  );

  // The member follows the link of the mail.
  const mail = await api.lastMail(member.email);
  expect(mail.subject).toContain('Acme Ops');
  const link = /https?:\/\/[^\s]+\/team-manager\?invite=[0-9a-f-]{36}/.exec(mail.text)?.[0];
  expect(link, mail.text).toBeTruthy();
  await signOut(page);
  await openSignedIn(page, member.email, member.password);
  await expect(page).toHaveURL(/\/no-servers$/);
  const invitePath = new URL(link!).pathname + new URL(link!).search;
  await page.goto(invitePath);
  // No team yet: the entry rule opens /team, keeping the invitation.
  await expect(page).toHaveURL(/\/team\?invite=/);
  const invitation = page.getByRole('region', { name: 'Invitation to Acme Ops' });
  await expect(invitation).toContainText('Olivia Owner invites you');
  await invitation.getByRole('button', { name: 'Accept' }).click();
  await expect(page).toHaveURL(/\/team-manager$/);
  const joined = page.getByRole('region', { name: 'Team Acme Ops' });
  await expect(joined.getByText('Owned by Olivia Owner')).toBeVisible();
  await expect(joined.getByRole('list', { name: 'Members of Acme Ops' })).toContainText(
    'Max Member',
  );
  // A member manages nothing: no invite form, no remove buttons.
  await expect(joined.getByLabel('Invite by email')).toHaveCount(0);
  await expect(joined.getByRole('button', { name: /^Remove / })).toHaveCount(0);

  // The shared server is on the member's dashboard, next to their own (none).
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/dashboard$/);
  const card = page.getByRole('article', { name: 'team-web' });
  await expect(card).toBeVisible();
  // No transfer or removal of a shared server.
  await card.getByRole('button', { name: 'Actions for team-web' }).click();
  await expect(page.getByRole('menuitem', { name: 'Remove server' })).toHaveCount(0);
  await expect(page.getByRole('menuitem', { name: 'Transfer to another user' })).toHaveCount(0);
  await page.keyboard.press('Escape');

  // The owner removes the member, after confirming; the member's next request finds nothing.
  await signOut(page);
  await openSignedIn(page, owner.email, owner.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto('/team-manager');
  const managed = page.getByRole('region', { name: 'Team Acme Ops' });
  await managed.getByRole('button', { name: 'Remove Max Member' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('Remove Max Member?');
  await dialog.getByRole('button', { name: 'Remove' }).click();
  await expect(managed.getByRole('list', { name: 'Members of Acme Ops' })).not.toContainText(
    'Max Member',
  );
  const memberToken = (await api.login(member.email, member.password)).token;
  const list = await request.get(`/api/v1/servers/users/${member.id}`, {
    headers: { authorization: `Bearer ${memberToken}` },
  });
  expect(await list.json()).toMatchObject({ total: 0, data: [] });
});
