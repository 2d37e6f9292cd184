import type { APIRequestContext, Page } from '@playwright/test';
import { type Api, expect, test, uniqueEmail, openSignedIn } from './fixtures';

/** Teams after the invitation: a member leaves, the owner renames, withdraws and deletes. */

async function signOut(page: Page) {
  await page.evaluate(() => window.localStorage.clear());
  await page.context().clearCookies();
}

/** A team of `owner` with `member` in it, made through the API as the pages do. */
async function teamWithMember(
  request: APIRequestContext,
  api: Api,
  owner: { id: number; email: string; password: string },
  member: { id: number; email: string; password: string },
  name: string,
): Promise<number> {
  const ownerToken = (await api.login(owner.email, owner.password)).token;
  const created = await request.post(`/api/v1/teams/users/${owner.id}`, {
    headers: { authorization: `Bearer ${ownerToken}` },
    data: { name },
  });
  expect(created.status(), await created.text()).toBe(201);
  const teamId = ((await created.json()) as { id: number }).id;
  const invited = await request.patch(`/api/v1/teams/${teamId}/users/${owner.id}`, {
    headers: { authorization: `Bearer ${ownerToken}` },
    data: { invite: [member.email] },
  });
  expect(invited.status()).toBe(200);
  const invite = /invite=([0-9a-f-]{36})/.exec((await api.lastMail(member.email)).text)![1];
  const memberToken = (await api.login(member.email, member.password)).token;
  const accepted = await request.post(`/api/v1/team-invites/${invite}/users/${member.id}`, {
    headers: { authorization: `Bearer ${memberToken}` },
  });
  expect(accepted.status()).toBe(200);
  return teamId;
}

test('a member leaves; the owner renames, withdraws an invitation and deletes the team', async ({
  page,
  api,
  request,
}) => {
  const owner = await api.account({ user_name: 'Tara Owner' });
  const member = await api.account({ user_name: 'Leo Member' });
  const teamId = await teamWithMember(request, api, owner, member, 'Night Shift');

  // The member leaves after confirming, and with no team left lands on /team.
  await openSignedIn(page, member.email, member.password);
  await expect(page).toHaveURL(/\/no-servers$/);
  await page.getByRole('link', { name: 'Team' }).first().click();
  await expect(page).toHaveURL(/\/team-manager$/);
  const team = page.getByRole('region', { name: 'Team Night Shift' });
  await team.getByRole('button', { name: 'Leave team' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('Leave Night Shift?');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(team).toBeVisible();
  await team.getByRole('button', { name: 'Leave team' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Leave' }).click();
  await expect(page).toHaveURL(/\/team$/);
  // Someone else's team is not editable: the API answers 404 as for a missing one.
  await page.goto(`/edit-team/${teamId}`);
  await expect(page.getByText('No such team')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Back to teams' })).toBeVisible();
  await signOut(page);

  // The owner renames the team on /edit-team/{id}.
  await openSignedIn(page, owner.email, owner.password);
  await expect(page).toHaveURL(/\/no-servers$/);
  await page.goto('/team-manager');
  const owned = page.getByRole('region', { name: 'Team Night Shift' });
  await expect(owned.getByRole('list', { name: 'Members of Night Shift' })).not.toContainText(
    'Leo Member',
  );
  await owned.getByRole('link', { name: 'Edit Night Shift' }).click();
  await expect(page).toHaveURL(new RegExp(`/edit-team/${teamId}$`));
  await page.getByLabel('Team name').fill('Day Shift');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page).toHaveURL(/\/team-manager$/);
  const renamed = page.getByRole('region', { name: 'Team Day Shift' });
  await expect(renamed).toBeVisible();

  // An invitation is sent, then withdrawn.
  const invitee = uniqueEmail('invitee');
  await renamed.getByLabel('Invite by email').fill('not an address');
  await renamed.getByRole('button', { name: 'Invite' }).click();
  await expect(renamed.getByText('Enter a valid email address')).toBeVisible();
  await renamed.getByLabel('Invite by email').fill(invitee);
  await renamed.getByRole('button', { name: 'Invite' }).click();
  const invites = renamed.getByRole('list', { name: 'Pending invitations of Day Shift' });
  await expect(invites).toContainText(invitee);
  expect((await api.lastMail(invitee)).subject).toContain('Day Shift');
  await renamed.getByRole('button', { name: `Withdraw the invitation to ${invitee}` }).click();
  await expect(invites).toHaveCount(0);

  // Deleting asks first, then the owner has no team and lands on /team.
  await renamed.getByRole('link', { name: 'Edit Day Shift' }).click();
  await page.getByRole('button', { name: 'Delete team' }).click();
  const confirm = page.getByRole('dialog');
  await expect(confirm).toContainText('Delete Day Shift?');
  await confirm.getByRole('button', { name: 'Delete team' }).click();
  await expect(page).toHaveURL(/\/team$/);
  await expect(page.getByRole('link', { name: 'Create your first team' })).toBeVisible();
});
