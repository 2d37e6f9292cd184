import { generateKeyPairSync } from 'node:crypto';
import type { Socket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { EVENTS } from '../../resources/agent/protocol';
import { sshFingerprint } from '../../resources/agent/fingerprint';
import type { TestApp, TestUser } from './helpers';
import { type LiveApp, connected, startLiveApp } from './liveApp';
import { PLAN_IDS } from '../../features/plans/api';

/** Owners on Pro: no plan limit in the way (plan-limits.test.ts tests the limits). */
const PRO = { plan: PLAN_IDS.pro };

/**
 * Issue 8, finding 5: SSH keys a team member adds on a shared server are theirs, not the
 * owner's. The owner sees who added each key; when the member leaves (removed, left, team
 * deleted, server unshared) the agent is asked to take their keys off the server, and the
 * panel's rows go. The agent here is a real socket.io client speaking the agent protocol.
 */
let live: LiveApp;
let t: TestApp;
let owner: TestUser;

beforeAll(async () => {
  live = await startLiveApp({ maxOpTimeoutMs: 800 });
  t = live.t;
  owner = await t.user(PRO);
});
afterEach(() => live.disconnectAll());
afterAll(() => live.close());

function newKey(comment = 'test') {
  const der = generateKeyPairSync('ed25519').publicKey.export({ format: 'der', type: 'spki' });
  const raw = der.subarray(der.length - 32);
  const field = (b: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(b.length);
    return Buffer.concat([len, b]);
  };
  const blob = Buffer.concat([field(Buffer.from('ssh-ed25519')), field(raw)]).toString('base64');
  return `ssh-ed25519 ${blob} ${comment}`;
}

interface Op {
  name: string;
  args: Record<string, unknown>;
}

/** A fake agent: answers every op with success and remembers what it was asked. */
function fakeAgent(socket: Socket, ops: Op[]) {
  socket.on(EVENTS.op, (request: Op, ack: (reply: unknown) => void) => {
    ops.push(request);
    if (request.name === 'pubkeys.remove') return ack({ ok: true, data: { removed: true } });
    if (request.name === 'pubkeys.add') {
      const key = String(request.args.key);
      const { type, fingerprint } = sshFingerprint(key);
      return ack({ ok: true, data: { type, fingerprint, comment: 'test' } });
    }
    ack({ ok: true, data: {} });
  });
}

async function until(ok: () => boolean | Promise<boolean>, ms = 3000) {
  const end = Date.now() + ms;
  while (!(await ok()) && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
}

/** A server of the owner's with its agent online, shared with a new team of one member. */
async function sharedServer(name: string) {
  const ops: Op[] = [];
  const { installKey, ...server } = await live.newServer(owner, name);
  const agentKey = await live.agentKey(installKey);
  const connect = async () => {
    const agent = live.agentSocket(agentKey);
    fakeAgent(agent, ops);
    await connected(agent);
    await until(() => t.app.agents.isOnline(server.id));
    return agent;
  };
  const agent = await connect();
  const member = await t.user(PRO);
  const team = (
    await t.call('POST', `/api/v1/teams/users/${owner.id}`, {
      token: owner.token,
      body: { name: `Team ${name}` },
    })
  ).json() as { id: number };
  const teamPath = `/api/v1/teams/${team.id}/users/${owner.id}`;
  await t.call('PATCH', teamPath, {
    token: owner.token,
    body: { invite: [member.email], share: [server.id] },
  });
  const invite = /invite=([0-9a-f-]{36})/.exec((await t.lastMail(member.email))!.text_body)![1];
  const joined = await t.call('POST', `/api/v1/team-invites/${invite}/users/${member.id}`, {
    token: member.token,
  });
  expect(joined.statusCode, joined.body).toBe(200);
  return { server, agent, connect, ops, member, team, teamPath };
}

const keysPath = (sid: number, uid: number) => `/api/v1/pubkeys/servers/${sid}/users/${uid}`;

interface KeyRow {
  id: number;
  label: string;
  user_name: string;
  fingerprint: string;
  status: string;
  error: string | null;
  added_by: { id: number; user_name: string; email: string } | null;
}

async function addKey(sid: number, user: TestUser, label: string, key = newKey()) {
  const res = await t.call('POST', keysPath(sid, user.id), {
    token: user.token,
    body: { label, user_name: 'root', key },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as KeyRow;
}

async function keysOf(sid: number, viewer = owner) {
  const res = await t.call('GET', `${keysPath(sid, viewer.id)}?perPage=100`, {
    token: viewer.token,
  });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { data: KeyRow[] }).data;
}

async function activity(sid: number) {
  const res = await t.call('GET', `/api/v1/activity/servers/${sid}/users/${owner.id}?perPage=100`, {
    token: owner.token,
  });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { data: { message: string; status: string; actor_id: number | null }[] })
    .data;
}

const removals = (ops: Op[]) =>
  ops.filter((o) => o.name === 'pubkeys.remove').map((o) => o.args.fingerprint);

describe("a member's keys on a shared server", () => {
  it('carry who added them: the owner sees the member, their own keys are theirs', async () => {
    const { server, member } = await sharedServer('keys-adder');
    await addKey(server.id, owner, 'owner laptop');
    await addKey(server.id, member, 'member laptop');

    const rows = await keysOf(server.id);
    const byLabel = Object.fromEntries(rows.map((r) => [r.label, r]));
    expect(byLabel['member laptop']!.added_by).toMatchObject({
      id: member.id,
      email: member.email,
    });
    expect(byLabel['owner laptop']!.added_by).toMatchObject({ id: owner.id, email: owner.email });
    // The member sees the same list.
    expect((await keysOf(server.id, member)).map((r) => r.added_by?.id).sort()).toEqual(
      [owner.id, member.id].sort(),
    );
  });

  it('are taken off the server when the owner removes the member; the owner’s stay', async () => {
    const { server, ops, member, teamPath } = await sharedServer('keys-removed');
    const mine = await addKey(server.id, owner, 'owner key');
    const theirs = await addKey(server.id, member, 'member key');

    const res = await t.call('PATCH', teamPath, {
      token: owner.token,
      body: { remove: [member.id] },
    });
    expect(res.statusCode, res.body).toBe(200);

    expect(removals(ops)).toEqual([theirs.fingerprint]);
    expect(ops.find((o) => o.name === 'pubkeys.remove')!.args).toMatchObject({
      user_name: 'root',
    });
    expect((await keysOf(server.id)).map((r) => r.label)).toEqual([mine.label]);
    const log = await activity(server.id);
    expect(
      log.find((e) => e.message.includes('"member key"') && /Remove/.test(e.message)),
    ).toMatchObject({ status: 'done' });
  });

  it('are taken off when the member deletes their account', async () => {
    const { server, ops, member } = await sharedServer('keys-account-deleted');
    await addKey(server.id, owner, 'owner key');
    const theirs = await addKey(server.id, member, 'member key');
    const res = await t.call('DELETE', `/api/v1/users/${member.id}`, {
      token: member.token,
      body: { password: member.password },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(removals(ops)).toEqual([theirs.fingerprint]);
    expect((await keysOf(server.id)).map((r) => r.label)).toEqual(['owner key']);
  });

  it('are taken off when the member leaves, the team is deleted, or the server unshared', async () => {
    for (const how of ['leave', 'delete', 'unshare'] as const) {
      const { server, ops, member, team, teamPath } = await sharedServer(`keys-${how}`);
      await addKey(server.id, owner, 'owner key');
      const theirs = await addKey(server.id, member, 'member key');
      const res =
        how === 'leave'
          ? await t.call('DELETE', `/api/v1/team-members/${team.id}/users/${member.id}`, {
              token: member.token,
            })
          : how === 'delete'
            ? await t.call('DELETE', teamPath, { token: owner.token })
            : await t.call('PATCH', teamPath, {
                token: owner.token,
                body: { unshare: [server.id] },
              });
      expect(res.statusCode, `${how}: ${res.body}`).toBe(200);
      expect(removals(ops), how).toEqual([theirs.fingerprint]);
      expect(
        (await keysOf(server.id)).map((r) => r.label),
        how,
      ).toEqual(['owner key']);
    }
  });

  it('stay while the member still reaches the server through another team', async () => {
    const { server, ops, member, teamPath } = await sharedServer('keys-two-teams');
    const other = (
      await t.call('POST', `/api/v1/teams/users/${owner.id}`, {
        token: owner.token,
        body: { name: 'Second team' },
      })
    ).json() as { id: number };
    const otherPath = `/api/v1/teams/${other.id}/users/${owner.id}`;
    await t.call('PATCH', otherPath, {
      token: owner.token,
      body: { invite: [member.email], share: [server.id] },
    });
    const invite = /invite=([0-9a-f-]{36})/.exec((await t.lastMail(member.email))!.text_body)![1];
    await t.call('POST', `/api/v1/team-invites/${invite}/users/${member.id}`, {
      token: member.token,
    });
    await addKey(server.id, member, 'member key');

    await t.call('PATCH', teamPath, { token: owner.token, body: { remove: [member.id] } });
    expect(removals(ops)).toEqual([]);
    expect((await keysOf(server.id)).map((r) => r.label)).toEqual(['member key']);

    await t.call('PATCH', otherPath, { token: owner.token, body: { remove: [member.id] } });
    expect(removals(ops)).toHaveLength(1);
    expect(await keysOf(server.id)).toEqual([]);
  });

  it('of an admin acting as the member are the member’s, and go with them', async () => {
    const { server, ops, member, teamPath } = await sharedServer('keys-acting');
    const admin = await t.user({ admin: true });
    const acting = await t.actAs(admin.token, member.id);
    const added = await addKey(server.id, { ...member, token: acting }, 'added for the member');
    expect((await keysOf(server.id)).find((r) => r.id === added.id)!.added_by).toMatchObject({
      id: member.id,
    });
    await t.call('PATCH', teamPath, { token: owner.token, body: { remove: [member.id] } });
    expect(removals(ops)).toEqual([added.fingerprint]);
    expect(await keysOf(server.id)).toEqual([]);
  });

  it('go with a transfer: the old owner and their team lose the server, so do their keys', async () => {
    const { server, ops, member } = await sharedServer('keys-transfer');
    const mine = await addKey(server.id, owner, 'old owner key');
    const theirs = await addKey(server.id, member, 'member key');
    const buyer = await t.user(PRO);
    const offered = await t.call(
      'POST',
      `/api/v1/transfer/servers/${server.id}/users/${owner.id}`,
      {
        token: owner.token,
        body: { email: buyer.email },
      },
    );
    expect(offered.statusCode, offered.body).toBe(200);
    const id = /\/dashboard\/([0-9a-f-]{36})/.exec((await t.lastMail(buyer.email))!.text_body)![1];
    const accepted = await t.call('GET', `/api/v1/transfer?uuid=${id}&processed=true`, {
      token: buyer.token,
    });
    expect(accepted.statusCode, accepted.body).toBe(200);

    expect(removals(ops).sort()).toEqual([mine.fingerprint, theirs.fingerprint].sort());
    expect(await keysOf(server.id, buyer)).toEqual([]);
  });

  it('while the server is offline stay listed as being removed, and go when it reconnects', async () => {
    const { server, agent, connect, ops, member, teamPath } = await sharedServer('keys-offline');
    await addKey(server.id, owner, 'owner key');
    const theirs = await addKey(server.id, member, 'member key');
    agent.disconnect();
    await until(async () => !(await t.app.agents.isOnline(server.id)));

    const res = await t.call('PATCH', teamPath, {
      token: owner.token,
      body: { remove: [member.id] },
    });
    expect(res.statusCode, res.body).toBe(200);
    const pending = (await keysOf(server.id)).find((r) => r.id === theirs.id);
    expect(pending).toMatchObject({ status: 'removing', added_by: { id: member.id } });
    expect(pending!.error).toMatch(/offline/i);

    await connect();
    await until(async () => (await keysOf(server.id)).length === 1);
    expect(removals(ops)).toEqual([theirs.fingerprint]);
    expect((await keysOf(server.id)).map((r) => r.label)).toEqual(['owner key']);
    const log = await activity(server.id);
    expect(
      log
        .filter((e) => e.message.includes('"member key"') && /Remove/.test(e.message))
        .map((e) => e.status),
    ).toEqual(expect.arrayContaining(['done', 'failed']));
  });
});
