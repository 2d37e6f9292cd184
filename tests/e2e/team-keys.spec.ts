import type { APIRequestContext, Page } from '@playwright/test';
import { io, type Socket } from 'socket.io-client';
import { generateKeyPairSync } from 'node:crypto';
import { AGENT_NAMESPACE, EVENTS } from '../../resources/agent/protocol';
import { sshFingerprint } from '../../resources/agent/fingerprint';
import { type Account, expect, test, openSignedIn } from './fixtures';

/**
 * Issue 8, finding 5, as the owner of a shared server sees it: the SSH keys page says who added
 * each key ("you", or the member's name and address); once the member is removed from the team,
 * their key is gone from the list and the agent was asked to take it off.
 */
const PANEL = `http://127.0.0.1:${process.env.E2E_PORT ?? 4173}`;
const SHOTS = '.tmp/shots-team-keys';

function publicKey(comment: string) {
  const der = generateKeyPairSync('ed25519').publicKey.export({ format: 'der', type: 'spki' });
  const field = (b: Buffer) => Buffer.concat([Buffer.from([0, 0, 0, b.length]), b]);
  const blob = Buffer.concat([field(Buffer.from('ssh-ed25519')), field(der.subarray(-32))]);
  return `ssh-ed25519 ${blob.toString('base64')} ${comment}`;
}

/** A stand-in agent that adds and removes keys, and remembers the removals. */
function fakeAgent(key: string, removed: string[]): Promise<Socket> {
  const socket = io(`${PANEL}${AGENT_NAMESPACE}`, {
    auth: { key, agent_version: 'e2e' },
    transports: ['websocket'],
    reconnection: false,
  });
  socket.on(
    EVENTS.op,
    (req: { name: string; args: Record<string, string> }, ack: (reply: unknown) => void) => {
      if (req.name === 'pubkeys.add') {
        const { type, fingerprint } = sshFingerprint(req.args.key!);
        return ack({ ok: true, data: { type, fingerprint, comment: '' } });
      }
      if (req.name === 'pubkeys.remove') {
        removed.push(req.args.fingerprint!);
        return ack({ ok: true, data: { removed: true } });
      }
      if (req.name === 'sshconfig.get')
        return ack({
          ok: true,
          data: { port: 22, password_authentication: false, permit_root_login: true },
        });
      ack({ ok: false, error: 'a stand-in agent' });
    },
  );
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', reject);
  });
}

async function call(
  request: APIRequestContext,
  token: string,
  method: 'post' | 'patch' | 'get',
  url: string,
  data?: unknown,
) {
  const res = await request[method](url, { headers: { authorization: `Bearer ${token}` }, data });
  expect(res.status(), await res.text()).toBeLessThan(300);
  return res.json() as Promise<Record<string, unknown>>;
}

async function signOut(page: Page) {
  await page.evaluate(() => window.localStorage.clear());
  await page.context().clearCookies();
}

test('the owner sees who added each key, and a removed member’s key goes', async ({
  page,
  api,
  request,
}) => {
  const owner: Account = await api.account({ user_name: 'Tara Owner' });
  const member: Account = await api.account({ user_name: 'Leo Member' });
  const ownerToken = (await api.login(owner.email, owner.password)).token;
  const memberToken = (await api.login(member.email, member.password)).token;

  // The owner's server, its agent online.
  const server = await call(
    request,
    ownerToken,
    'post',
    `/api/v1/servers/users/${owner.id}?action=create`,
    {
      name: 'shared-web',
    },
  );
  const sid = server.id as number;
  const script = await call(
    request,
    ownerToken,
    'post',
    `/api/v1/servers/users/${owner.id}?action=script&sid=${sid}`,
  );
  const installKey = /\/install\/([\w-]+)/.exec(script.command as string)![1]!;
  const credentials = await request.post(`/install/${installKey}/credentials`);
  const removed: string[] = [];
  const agent = await fakeAgent(((await credentials.json()) as { key: string }).key, removed);
  try {
    await expect
      .poll(
        async () =>
          (await call(request, ownerToken, 'get', `/api/v1/servers/${sid}/users/${owner.id}`))
            .connected,
      )
      .toBe(true);

    // A team sharing it, with the member in it.
    const team = await call(request, ownerToken, 'post', `/api/v1/teams/users/${owner.id}`, {
      name: 'Web crew',
    });
    const teamPath = `/api/v1/teams/${team.id as number}/users/${owner.id}`;
    await call(request, ownerToken, 'patch', teamPath, { invite: [member.email], share: [sid] });
    const invite = /invite=([0-9a-f-]{36})/.exec((await api.lastMail(member.email)).text)![1];
    await call(request, memberToken, 'post', `/api/v1/team-invites/${invite}/users/${member.id}`);

    // A key each, on root.
    const keys = (uid: number) => `/api/v1/pubkeys/servers/${sid}/users/${uid}`;
    await call(request, ownerToken, 'post', keys(owner.id), {
      label: 'owner laptop',
      user_name: 'root',
      key: publicKey('tara'),
    });
    const theirs = await call(request, memberToken, 'post', keys(member.id), {
      label: 'member laptop',
      user_name: 'root',
      key: publicKey('leo'),
    });

    // The member's view: their key is "you", and the card says it goes with them.
    await openSignedIn(page, member.email, member.password);
    await expect(page).toHaveURL(/\/(dashboard|no-servers)$/);
    await page.goto(`/ssh-keys/${sid}`);
    await expect(page.getByTestId('pubkey-member laptop')).toContainText('Added by you');
    await expect(page.getByTestId('pubkey-owner laptop')).toContainText(
      `Added by Tara Owner (${owner.email})`,
    );
    await expect(page.getByText(/removed from the server when you leave the team/)).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/member-view.png`, fullPage: true });
    await signOut(page);

    // The owner's view.
    await openSignedIn(page, owner.email, owner.password);
    await expect(page).toHaveURL(/\/dashboard$/);
    await page.goto(`/ssh-keys/${sid}`);
    await expect(page.getByTestId('pubkey-owner laptop')).toContainText('Added by you');
    await expect(page.getByTestId('pubkey-member laptop')).toContainText(
      `Added by Leo Member (${member.email})`,
    );
    await page.screenshot({ path: `${SHOTS}/owner-view.png`, fullPage: true });

    // The member is removed from the team: their key goes from the server and the list.
    await call(request, ownerToken, 'patch', teamPath, { remove: [member.id] });
    expect(removed).toEqual([theirs.fingerprint]);
    await page.reload();
    await expect(page.getByTestId('pubkey-owner laptop')).toBeVisible();
    await expect(page.getByTestId('pubkey-member laptop')).toHaveCount(0);
    await page.screenshot({ path: `${SHOTS}/owner-after-removal.png`, fullPage: true });
  } finally {
    agent.disconnect();
  }
});
