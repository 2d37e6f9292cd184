import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OpError } from '../../agent/lib/opError';
import type { TestUser } from './helpers';
import { type FakeAgent, startFakeAgent } from './fakeAgent';
import { type LiveApp, startLiveApp } from './liveApp';
import { REUSE_MS } from '../../features/fail2ban/server';

/**
 * The attempt limits (csf/{kind}): the five GETs of a server share one agent read of every kind
 * (the security card asks for the five at once), a change reaches the agent as its own kind
 * with the fields the client changed and makes the next GET read the server again; what the
 * server's fail2ban answers is what the client sees, a refused configuration comes back as the
 * agent's message, and bad input never leaves the panel.
 */
let live: LiveApp;
let owner: TestUser;
let agent: FakeAgent;
type Limit = { value: number; ban_time: number; find_time: number };
const limits = new Map<string, Limit>();

const path = (kind: string) => `/api/v1/csf/${kind}/servers/${agent.server.id}/users/${owner.id}`;
const call = (method: 'GET' | 'PATCH' | 'POST', url: string, body?: unknown) =>
  live.t.call(method, url, { token: owner.token, body });
const KINDS = ['max-attempts', 'ssh-max', 'imap-max', 'pop-max', 'smt-max'];
const reads = () => agent.calls.filter((c) => c.name === 'fail2ban.list').length;
/** Past the window in which GETs reuse the last read. */
const afterReuse = () => new Promise((resolve) => setTimeout(resolve, REUSE_MS + 50));
const stateOf = (kind: string) => {
  const limit = limits.get(kind) ?? { value: 0, ban_time: 3600, find_time: 3600 };
  return { kind, ...limit, active: limit.value > 0, banned: [] };
};

beforeAll(async () => {
  live = await startLiveApp();
  owner = await live.t.user();
  agent = await startFakeAgent(live, owner, {
    'fail2ban.list': () => KINDS.map(stateOf),
    'fail2ban.ignore': () => ({ applied: true }),
    'fail2ban.set': (a: { kind: string; changes: Partial<Limit> }) => {
      if (a.changes.value === 42)
        throw new OpError('check_failed', 'fail2ban refused the new configuration: bad jail');
      limits.set(a.kind, { ...stateOf(a.kind), ...a.changes });
      return stateOf(a.kind);
    },
  });
});
afterAll(async () => {
  live.disconnectAll();
  await live.close();
});

describe('attempt limits', () => {
  it('answers the five kinds at once with one read of the server', async () => {
    const before = reads();
    const all = await Promise.all(KINDS.map((kind) => call('GET', path(kind))));
    all.forEach((res, i) => {
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({
        kind: KINDS[i],
        value: 0,
        ban_time: 3600,
        find_time: 3600,
        active: false,
        banned: [],
      });
    });
    expect(reads()).toBe(before + 1);
    expect(agent.calls.at(-1)).toEqual({ name: 'fail2ban.list', args: {} });
    // A GET right after reuses that read; once it is old, the server is read again.
    expect((await call('GET', path('ssh-max'))).json()).toMatchObject({ kind: 'ssh-max' });
    expect(reads()).toBe(before + 1);
    await afterReuse();
    expect((await call('GET', path('ssh-max'))).statusCode).toBe(200);
    expect(reads()).toBe(before + 2);
  });

  it('changes only the fields sent, and leaves an activity line', async () => {
    expect((await call('GET', path('ssh-max'))).json()).toMatchObject({ value: 0 });
    const res = await call('PATCH', path('ssh-max'), { value: 5 });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ kind: 'ssh-max', value: 5, ban_time: 3600, active: true });
    expect(agent.calls.at(-1)).toEqual({
      name: 'fail2ban.set',
      args: { kind: 'ssh-max', changes: { value: 5 }, ignore: [] },
    });
    // The change dropped the shared read: the next GET shows the new limit at once.
    expect((await call('GET', path('ssh-max'))).json()).toMatchObject({ value: 5, active: true });
    const log = await call('GET', `/api/v1/activity/servers/${agent.server.id}/users/${owner.id}`);
    expect(log.json().data[0]).toMatchObject({
      message: 'Change the ssh attempt limit: value 5',
      status: 'done',
    });
  });

  it("answers the server's refusal with its message; the limit stays", async () => {
    const res = await call('PATCH', path('smt-max'), { value: 42 });
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toBe('fail2ban refused the new configuration: bad jail');
    expect((await call('GET', path('smt-max'))).json()).toMatchObject({ value: 0 });
  });

  it("sends the firewall's ignore list with every change (never banned)", async () => {
    const ignore = `csf/csf_ignore/servers/${agent.server.id}/users/${owner.id}`;
    expect((await call('POST', `/api/v1/${ignore}`, { ip: '2001:DB8::1' })).statusCode).toBe(201);
    expect(agent.calls.at(-1)).toEqual({
      name: 'fail2ban.ignore',
      args: { ignore: ['2001:db8::1'] },
    });
    await call('PATCH', path('imap-max'), { value: 4 });
    expect(agent.calls.at(-1)).toEqual({
      name: 'fail2ban.set',
      args: { kind: 'imap-max', changes: { value: 4 }, ignore: ['2001:db8::1'] },
    });
  });

  it('refuses bad input at its fields before asking the server', async () => {
    const before = agent.calls.length;
    const res = await call('PATCH', path('pop-max'), { value: 1000, ban_time: 5 });
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json().errors).sort()).toEqual(['ban_time', 'value']);
    expect(agent.calls.length).toBe(before);
  });

  it('answers 409 while the server is offline, even right after a read', async () => {
    expect((await call('GET', path('ssh-max'))).statusCode).toBe(200);
    await agent.disconnect();
    const res = await call('GET', path('ssh-max'));
    expect(res.statusCode).toBe(409);
    expect((await call('PATCH', path('ssh-max'), { value: 3 })).statusCode).toBe(409);
    await agent.reconnect();
  });
});
