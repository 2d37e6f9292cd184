import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../scripts/sandbox/index';
import type { TestUser } from '../api/helpers';
import {
  type Panel,
  type ServerRecord,
  activity,
  installedSandbox,
  startPanel,
  waitConnected,
} from './harness/panel';

/**
 * Issue 8, finding 5, on a real server: a team member adds SSH keys on a server shared with
 * the team (root's and a system user's); once the member is out of the team, the real agent
 * has taken them out of authorized_keys and `ssh` with them is refused, while the owner's key
 * still opens the server. The same holds when the server was offline at the removal: the keys
 * go when its agent is back.
 */
let panel: Panel;
let sb: Sandbox;
let server: ServerRecord;
let member: TestUser;

const OWNER_KEY = '/root/owner-key';
const MEMBER_KEY = '/root/member-key';
const SSH_BASE = [
  '-o',
  'StrictHostKeyChecking=no',
  '-o',
  'UserKnownHostsFile=/dev/null',
  '-o',
  'ConnectTimeout=5',
  '-o',
  'LogLevel=ERROR',
  '-o',
  'BatchMode=yes',
  '-o',
  'IdentitiesOnly=yes',
  '-o',
  'PasswordAuthentication=no',
];

async function sh(script: string): Promise<string> {
  return (await sb.execOk(['bash', '-c', script])).stdout.trim();
}

/** `ssh -i key user@server id -un`: the user's name when the key opens the account. */
async function sshAs(user: string, key: string) {
  const res = await sb.exec(['ssh', ...SSH_BASE, '-i', key, `${user}@127.0.0.1`, 'id -un'], {
    timeoutMs: 20_000,
  });
  return res.code === 0 ? res.stdout.trim() : `refused (${res.code})`;
}

const keysPath = (uid: number) => `/api/v1/pubkeys/servers/${server.id}/users/${uid}`;

async function addKey(
  who: { id: number; token: string },
  label: string,
  user: string,
  file: string,
) {
  const res = await panel.t.call('POST', keysPath(who.id), {
    token: who.token,
    body: { label, user_name: user, key: await sh(`cat ${file}.pub`) },
  });
  expect(res.statusCode, res.body).toBe(201);
  expect(res.json()).toMatchObject({ status: 'active' });
}

interface KeyRow {
  label: string;
  user_name: string;
  status: string;
  error: string | null;
  added_by: { id: number; email: string } | null;
}

async function ownersKeys(): Promise<KeyRow[]> {
  const res = await panel.api('GET', `pubkeys/servers/${server.id}/users/${panel.uid}?perPage=100`);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { data: KeyRow[] }).data;
}

/** A new team of the owner's sharing the server, with `member` in it. */
async function shareWithMember(name: string) {
  const team = (await panel.api('POST', `teams/users/${panel.uid}`, { name })).json() as {
    id: number;
  };
  const teamPath = `teams/${team.id}/users/${panel.uid}`;
  const patched = await panel.api('PATCH', teamPath, {
    invite: [member.email],
    share: [server.id],
  });
  expect(patched.statusCode, patched.body).toBe(200);
  const mail = await panel.t.lastMail(member.email);
  const invite = /invite=([0-9a-f-]{36})/.exec(mail!.text_body)![1];
  const joined = await panel.t.call('POST', `/api/v1/team-invites/${invite}/users/${member.id}`, {
    token: member.token,
  });
  expect(joined.statusCode, joined.body).toBe(200);
  return teamPath;
}

beforeAll(async () => {
  panel = await startPanel();
  member = await panel.t.user();
  ({ sb, server } = await installedSandbox(panel, 'team-keys', ['ssh']));
  await sh(
    `ssh-keygen -q -t ed25519 -N '' -C owner -f ${OWNER_KEY} && ` +
      `ssh-keygen -q -t ed25519 -N '' -C member -f ${MEMBER_KEY}`,
  );
  const deploy = await panel.api('POST', `sysusers/servers/${server.id}/users/${panel.uid}`, {
    user_name: 'deploy',
    password: 'deploy-Password-1234',
    quota_hard: 0,
    quota_soft: 0,
  });
  expect(deploy.statusCode, deploy.body).toBe(201);
});

afterAll(async () => {
  await sb?.stop();
  await panel?.close();
});

describe("a team member's SSH keys on a shared server", () => {
  it('open the server while the member is in the team; the owner sees who added them', async () => {
    const teamPath = await shareWithMember('Ops');
    await addKey({ id: panel.uid, token: panel.token }, 'owner laptop', 'root', OWNER_KEY);
    await addKey(member, 'member laptop', 'root', MEMBER_KEY);
    await addKey(member, 'member deploys', 'deploy', MEMBER_KEY);

    expect(await sshAs('root', MEMBER_KEY)).toBe('root');
    expect(await sshAs('deploy', MEMBER_KEY)).toBe('deploy');
    expect(await sshAs('root', OWNER_KEY)).toBe('root');
    const adders = Object.fromEntries((await ownersKeys()).map((k) => [k.label, k.added_by?.id]));
    expect(adders).toEqual({
      'owner laptop': panel.uid,
      'member laptop': member.id,
      'member deploys': member.id,
    });

    // The owner removes the member from the team.
    const removed = await panel.api('PATCH', teamPath, { remove: [member.id] });
    expect(removed.statusCode, removed.body).toBe(200);

    expect(await sshAs('root', MEMBER_KEY)).toMatch(/^refused/);
    expect(await sshAs('deploy', MEMBER_KEY)).toMatch(/^refused/);
    const memberPub = (await sh(`cut -d' ' -f2 ${MEMBER_KEY}.pub`)).trim();
    expect(await sh('cat /root/.ssh/authorized_keys')).not.toContain(memberPub);
    expect(await sh('cat /home/deploy/.ssh/authorized_keys')).not.toContain(memberPub);
    // The owner's key stays, on the server and in the list.
    expect(await sshAs('root', OWNER_KEY)).toBe('root');
    expect((await ownersKeys()).map((k) => k.label)).toEqual(['owner laptop']);
    const log = await activity(panel, server.id);
    const removals = log.filter((e) => /^Remove SSH key "member/.test(e.message));
    expect(removals.map((e) => e.status)).toEqual(['done', 'done']);
    expect(removals[0]!.message).toContain(member.email);
  });

  it('added while the server was online go when it is back, if it was offline at the removal', async () => {
    const teamPath = await shareWithMember('Night shift');
    await addKey(member, 'member laptop', 'root', MEMBER_KEY);
    expect(await sshAs('root', MEMBER_KEY)).toBe('root');

    await sh('service stackdeck-agent stop');
    await waitConnected(panel, server.id, false);
    const removed = await panel.api('PATCH', teamPath, { remove: [member.id] });
    expect(removed.statusCode, removed.body).toBe(200);
    // Still on the server: the row says so to the owner.
    const waiting = (await ownersKeys()).find((k) => k.label === 'member laptop');
    expect(waiting).toMatchObject({ status: 'removing', added_by: { id: member.id } });
    expect(waiting!.error).toMatch(/offline/);

    await sh('service stackdeck-agent start');
    await waitConnected(panel, server.id, true);
    const deadline = Date.now() + 30_000;
    while ((await ownersKeys()).some((k) => k.label === 'member laptop') && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 300));
    expect((await ownersKeys()).map((k) => k.label)).toEqual(['owner laptop']);
    expect(await sshAs('root', MEMBER_KEY)).toMatch(/^refused/);
    expect(await sshAs('root', OWNER_KEY)).toBe('root');
  });
});
