import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AGENT_NAMESPACE, EVENTS } from '../../resources/agent/protocol';
import type { TestApp, TestUser } from './helpers';
import type { LiveMessage } from '../../server/agents/liveRooms';
import { type LiveApp, connected, refused, sampleReport as report, startLiveApp } from './liveApp';
import { waitFor } from '../waitFor';

/**
 * The panel's socket endpoints, driven by a real socket.io client: agents authenticate with
 * their server's own key, browsers with a token and the panel's Origin. (The real agent's ops
 * run in sandbox servers: tests/system.)
 */
let live: LiveApp;
let t: TestApp;
let owner: TestUser;
let stranger: TestUser;
let base: string;

beforeAll(async () => {
  live = await startLiveApp({ maxOpTimeoutMs: 800 });
  ({ t, base } = live);
  [owner, stranger] = await Promise.all([t.user(), t.user()]);
});
afterEach(() => live.disconnectAll());
afterAll(() => live.close());

const uid = () => owner.id;
const newServer = (name?: string) => live.newServer(owner, name);
const credentials = (installKey: string) => live.agentKey(installKey);
const agentSocket = (key: string) => live.agentSocket(key);
const browserSocket = (token: string | undefined, origin?: string) =>
  live.browserSocket(token, origin);

async function until<T>(read: () => Promise<T>, ok: (value: T) => boolean, ms = 3000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (ok(value) || Date.now() > end) return value;
    await new Promise((r) => setTimeout(r, 50));
  }
}

const getServer = (id: number) =>
  t
    .call('GET', `/api/v1/servers/${id}/users/${uid()}`, { token: owner.token })
    .then((r) => r.json());

describe('install', () => {
  it('serves the install script, records its events, and stops once the agent connects', async () => {
    const server = await newServer();
    const script = await fetch(`${base}/install/${server.installKey}`);
    expect(script.status).toBe(200);
    const text = await script.text();
    expect(text).toContain(`PANEL='${base}'`);
    expect(text).toContain('/credentials');
    expect(text).not.toMatch(/"key"/); // the agent key is fetched at install time, not carried

    await t.call('POST', `/api/v1/servers/users/${uid()}?action=install&sid=${server.id}`, {
      token: owner.token,
    });
    const posted = await fetch(`${base}/install/${server.installKey}/events`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ event: 'Downloading the agent', code: 4 }),
    });
    expect(posted.status).toBe(204);
    const events = await t.call('GET', `/api/v1/servers/${server.id}/events/users/${uid()}`, {
      token: owner.token,
    });
    expect(
      (events.json() as { data: { event: string; code: number }[] }).data.map((e) => [
        e.event,
        e.code,
      ]),
    ).toEqual([
      ['Waiting for the install command to run on the server', 0],
      ['Downloading the agent', 4],
    ]);

    // Only the key fetched last works.
    const first = await credentials(server.installKey);
    const second = await credentials(server.installKey);
    expect(await refused(agentSocket(first))).toBe('unauthorized');
    await connected(agentSocket(second));
    const record = await until(
      () => getServer(server.id),
      (s) => s.connected === true,
    );
    expect(record).toMatchObject({ connected: true, name: 'web-1', pending_name: null });
    const done = await until(
      async () =>
        (
          await t.call('GET', `/api/v1/servers/${server.id}/events/users/${uid()}`, {
            token: owner.token,
          })
        ).json() as { data: { event: string; code: number }[] },
      (e) => e.data.length === 3,
    );
    expect(done.data.at(-1)).toMatchObject({ event: 'The agent is connected', code: 10 });
    expect((await fetch(`${base}/install/${server.installKey}`)).status).toBe(404);
    expect(
      (
        await t.call('POST', `/api/v1/servers/users/${uid()}?action=script&sid=${server.id}`, {
          token: owner.token,
        })
      ).statusCode,
    ).toBe(409);
  });

  it('keeps a pending server pending when it is renamed, and takes the new name on connect', async () => {
    const server = await newServer('first-name');
    expect(server).toMatchObject({ pending_name: 'first-name' });
    expect(server.name.startsWith('cs-')).toBe(true);
    const put = await t.call('PUT', `/api/v1/servers/${server.id}/users/${uid()}`, {
      token: owner.token,
      body: { name: 'second-name', ip4: '203.0.113.7', provider: 'Hetzner' },
    });
    expect(put.statusCode).toBe(200);
    expect(put.json()).toMatchObject({
      name: server.name,
      pending_name: 'second-name',
      ip4: '203.0.113.7',
      provider: 'Hetzner',
      connected: false,
    });
    const bad = await t.call('PUT', `/api/v1/servers/${server.id}/users/${uid()}`, {
      token: owner.token,
      body: { ip4: '999.1.1.1' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('An IPv4 address like 203.0.113.10');
    const looksPending = await t.call('PUT', `/api/v1/servers/${server.id}/users/${uid()}`, {
      token: owner.token,
      body: { name: 'cs-mine' },
    });
    expect(looksPending.statusCode).toBe(400);
    expect(looksPending.body).toContain('A name cannot start with cs-');
    await connected(agentSocket(await credentials(server.installKey)));
    const record = await until(
      () => getServer(server.id),
      (s) => s.connected === true,
    );
    expect(record).toMatchObject({ name: 'second-name', pending_name: null });
    const renamed = await t.call('PUT', `/api/v1/servers/${server.id}/users/${uid()}`, {
      token: owner.token,
      body: { name: 'third-name' },
    });
    expect(renamed.json()).toMatchObject({ name: 'third-name', pending_name: null });
  });

  it('refuses a made-up key and a malformed handshake', async () => {
    expect(await refused(agentSocket('x'.repeat(43)))).toBe('unauthorized');
    const bare = live.socket(AGENT_NAMESPACE, {});
    expect(await refused(bare)).toBe('unauthorized');
  });
});

describe('connection state', () => {
  it('an agent that leaves while its connection is being set up is shown offline', async () => {
    // The connection's `connected` write must not land after its `disconnected` one: the row
    // would say online until the agent came back (a CI run caught it under load).
    for (let round = 0; round < 5; round++) {
      const server = await newServer(`flap-${round}`);
      const socket = agentSocket(await credentials(server.installKey));
      await connected(socket);
      socket.disconnect();
      // The setup is over once its first-connection event is recorded.
      await waitFor('the connection set up', () =>
        t.app.db
          .selectFrom('server_events')
          .select('id')
          .where('server_id', '=', server.id)
          .where('event', '=', 'The agent is connected')
          .executeTakeFirst(),
      );
      await waitFor('the agent gone', async () => !(await t.app.agents.isOnline(server.id)));
      const record = await until(
        () => getServer(server.id),
        (s) => s.connected === false,
      );
      expect(record.connected, `round ${round}`).toBe(false);
    }
  });
});

describe('reports and live info', () => {
  it('merges reports into the server, pushes them to subscribed browsers of the owner only', async () => {
    const server = await newServer('db-1');
    const agent = agentSocket(await credentials(server.installKey));
    await connected(agent);

    const mine = browserSocket(owner.token);
    await connected(mine);
    const theirs = browserSocket(stranger.token);
    await connected(theirs);
    expect(await mine.emitWithAck(EVENTS.subscribe, { uuid: server.uuid })).toMatchObject({
      ok: true,
    });
    expect(await theirs.emitWithAck(EVENTS.subscribe, { uuid: server.uuid })).toEqual({
      ok: false,
      error: 'Not found',
    });
    let strangerSaw = 0;
    theirs.on(EVENTS.live, () => (strangerSaw += 1));

    const pushed = new Promise<Report & { uuid: string; connected: boolean }>((resolve) =>
      mine.once(EVENTS.live, resolve),
    );
    agent.emit(EVENTS.report, report({ hostname: 'db-1.example.com' }));
    expect(await pushed).toMatchObject({
      uuid: server.uuid,
      connected: true,
      hostname: 'db-1.example.com',
    });

    const record = await until(
      () => getServer(server.id),
      (s) => s.hostname === 'db-1.example.com',
    );
    expect(record).toMatchObject({
      hostname: 'db-1.example.com',
      os_version: 'Debian GNU/Linux 12 (bookworm)',
      timezone: 'Europe/Berlin',
      kernel_version: '6.1.0-test',
      live: { cpu: { usage: 12.5 } },
    });
    // A malformed report changes nothing. The agent's reports are taken in arrival order: once
    // the good one sent after it is pushed, the malformed one was already turned away, and the
    // push of the good one is the only one the browser got.
    const seen: LiveMessage[] = [];
    const heard = (message: LiveMessage) => seen.push(message);
    mine.on(EVENTS.live, heard);
    agent.emit(EVENTS.report, { hostname: 'evil', cpu: 'lots' });
    agent.emit(
      EVENTS.report,
      report({ hostname: 'db-1.example.com', cpu: { cores: 2, usage: 77 } }),
    );
    await waitFor('the report sent after the malformed one to be pushed', () =>
      seen.some((m) => m.cpu.usage === 77),
    );
    mine.off(EVENTS.live, heard);
    expect(seen.map((m) => [m.hostname, m.cpu.usage])).toEqual([['db-1.example.com', 77]]);
    expect((await getServer(server.id)).hostname).toBe('db-1.example.com');

    const offline = new Promise<{ connected: boolean }>((resolve) =>
      mine.once(EVENTS.live, resolve),
    );
    agent.disconnect();
    expect(await offline).toMatchObject({ connected: false });
    expect(
      await until(
        () => getServer(server.id),
        (s) => s.connected === false,
      ),
    ).toMatchObject({ connected: false });
    expect(strangerSaw).toBe(0);
  });

  it('refuses browsers without a token or from another origin', async () => {
    expect(await refused(browserSocket(undefined))).toBe('unauthorized');
    expect(await refused(browserSocket(owner.token, 'https://evil.example'))).toBe(
      'origin not allowed',
    );
  });

  it('keeps history: minute samples that the stats call returns', async () => {
    const server = await newServer('stats-1');
    const agent = agentSocket(await credentials(server.installKey));
    await connected(agent);
    const minute = Math.floor(Date.now() / 60_000) * 60_000;
    agent.emit(EVENTS.report, report({ at: minute - 120_000, cpu: { cores: 2, usage: 10 } }));
    agent.emit(EVENTS.report, report({ at: minute - 110_000, cpu: { cores: 2, usage: 30 } }));
    agent.emit(EVENTS.report, report({ at: minute - 60_000, cpu: { cores: 2, usage: 50 } }));
    await until(
      async () => t.app.live.get(server.id)?.cpu.usage,
      (u) => u === 50,
    );
    await t.app.live.flush();
    const stats = await t.call('GET', `/api/v1/stats/servers/${server.id}/users/${uid()}`, {
      token: owner.token,
    });
    const samples = (stats.json() as { data: { at: number; cpu: number }[] }).data;
    expect(samples).toEqual([expect.objectContaining({ at: (minute - 120_000) / 1000, cpu: 20 })]);
    // A delayed report from before the newest changes neither the live info nor the samples.
    // Reports are taken in arrival order: once the newer one sent after it is pushed, the
    // delayed one was already passed over, and the browser heard of the newer one only.
    const browser = browserSocket(owner.token);
    await connected(browser);
    expect(await browser.emitWithAck(EVENTS.subscribe, { uuid: server.uuid })).toMatchObject({
      ok: true,
    });
    const seen: LiveMessage[] = [];
    browser.on(EVENTS.live, (message: LiveMessage) => seen.push(message));
    agent.emit(EVENTS.report, report({ at: minute - 115_000, cpu: { cores: 2, usage: 99 } }));
    agent.emit(EVENTS.report, report({ at: minute - 50_000, cpu: { cores: 2, usage: 70 } }));
    await waitFor('the report sent after the delayed one to be pushed', () =>
      seen.some((m) => m.cpu.usage === 70),
    );
    expect(seen.map((m) => m.cpu.usage)).toEqual([70]);
    expect(t.app.live.get(server.id)?.cpu.usage).toBe(70);
    // The delayed report started no minute of its own: the samples are as they were.
    await t.app.live.flush();
    const later = await t.call('GET', `/api/v1/stats/servers/${server.id}/users/${uid()}`, {
      token: owner.token,
    });
    expect((later.json() as { data: unknown[] }).data).toEqual(samples);
  });
});

describe('ops', () => {
  async function onlineServer(answer: (request: { name: string; args: unknown }) => unknown) {
    const server = await newServer('ops-1');
    const agent = agentSocket(await credentials(server.installKey));
    agent.on(
      EVENTS.op,
      (request: { name: string; args: unknown }, ack: (reply: unknown) => void) => {
        const reply = answer(request);
        if (reply !== undefined) ack(reply);
      },
    );
    await connected(agent);
    await until(
      () => getServer(server.id),
      (s) => s.connected === true,
    );
    return { server, agent };
  }

  const activity = async (sid: number) =>
    (
      (
        await t.call('GET', `/api/v1/activity/servers/${sid}/users/${uid()}`, {
          token: owner.token,
        })
      ).json() as {
        data: { message: string; status: string; error: string | null }[];
      }
    ).data;

  it('sends validated arguments and saves what the server answers', async () => {
    const seen: unknown[] = [];
    const { server } = await onlineServer((request) => {
      seen.push(request);
      return {
        ok: true,
        data: {
          os: 'Debian GNU/Linux 12 (bookworm)',
          tz: 'Asia/Tokyo',
          hostname: 'h',
          kernel_version: 'k',
        },
      };
    });
    const res = await t.call('GET', `/api/v1/ostz/servers/${server.id}/users/${uid()}`, {
      token: owner.token,
    });
    expect(res.json()).toEqual({ os: 'Debian GNU/Linux 12 (bookworm)', tz: 'Asia/Tokyo' });
    expect(seen).toEqual([{ id: expect.any(String), name: 'system.info', args: {} }]);
    expect((await getServer(server.id)).timezone).toBe('Asia/Tokyo');
    expect(await activity(server.id)).toEqual([
      expect.objectContaining({ message: 'Read OS and time zone', status: 'done' }),
    ]);
  });

  it('pings: a trivial read through the agent, with its round trip and no activity line', async () => {
    const { server } = await onlineServer(() => ({ ok: true, data: { uptime: 4242.5 } }));
    const res = await t.call('GET', `/api/v1/ping/servers/${server.id}/users/${uid()}`, {
      token: owner.token,
    });
    expect(res.json()).toEqual({ uptime: 4242.5, round_trip_ms: expect.any(Number) });
    expect(await activity(server.id)).toEqual([]);
  });

  it("passes the agent's refusal to the user and logs it as failed", async () => {
    const { server } = await onlineServer(() => ({
      ok: false,
      error: 'hostname: you must be root',
    }));
    const res = await t.call('PUT', `/api/v1/hostname/servers/${server.id}/users/${uid()}`, {
      token: owner.token,
      body: { hostname: 'web-9' },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toBe('hostname: you must be root');
    expect(await activity(server.id)).toEqual([
      expect.objectContaining({ status: 'failed', error: 'hostname: you must be root' }),
    ]);
  });

  it('reports an op that outlives its time-out as failed, and an odd answer as an error', async () => {
    const silent = await onlineServer(() => undefined);
    const slow = await t.call(
      'PATCH',
      `/api/v1/cleanup/servers/${silent.server.id}/users/${uid()}`,
      { token: owner.token },
    );
    expect(slow.statusCode).toBe(504);
    expect(await activity(silent.server.id)).toEqual([
      expect.objectContaining({ status: 'failed' }),
    ]);

    const odd = await onlineServer(() => ({ ok: true, data: { freed: 'lots' } }));
    const res = await t.call('PATCH', `/api/v1/cleanup/servers/${odd.server.id}/users/${uid()}`, {
      token: owner.token,
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toBe('The server answered with something unexpected');
  });

  it("one key acts for one server: a newer connection replaces the old, and no agent answers another server's op", async () => {
    const server = await newServer('keyed-1');
    const key = await credentials(server.installKey);
    const answered: string[] = [];
    const connect = async (who: string) => {
      const socket = agentSocket(key);
      socket.on(EVENTS.op, (_request: unknown, ack: (reply: unknown) => void) => {
        answered.push(who);
        ack({ ok: true, data: { rebooting: true } });
      });
      await connected(socket);
      return socket;
    };
    const first = await connect('first');
    await until(
      () => getServer(server.id),
      (s) => s.connected === true,
    );
    const dropped = new Promise<void>((resolve) => first.once('disconnect', () => resolve()));
    await connect('second');
    await dropped;
    const res = await t.call('POST', `/api/v1/reboot/servers/${server.id}/users/${uid()}`, {
      token: owner.token,
    });
    expect(res.json()).toEqual({ rebooting: true });
    expect(answered).toEqual(['second']);
    // The replaced connection leaving does not mark the server offline.
    expect((await getServer(server.id)).connected).toBe(true);

    // Another server of the same owner has no agent: its ops fail at once, nobody answers them.
    const other = await newServer('keyless');
    const refusedOp = await t.call('POST', `/api/v1/reboot/servers/${other.id}/users/${uid()}`, {
      token: owner.token,
    });
    expect(refusedOp.statusCode).toBe(409);
    expect(answered).toEqual(['second']);
  });

  it('marks entries left pending by a lost answer as failed', async () => {
    const server = await newServer('stale-1');
    const id = await t.app.services.serverLog.begin({
      serverId: server.id,
      userId: owner.id,
      actorId: null,
      who: 'system',
      message: 'Reboot',
    });
    await t.app.db
      .updateTable('server_activity')
      .set({ created_at: new Date(Date.now() - 10 * 60_000).toISOString() })
      .where('id', '=', id)
      .execute();
    await t.app.services.serverLog.failStale(5 * 60_000);
    expect(await activity(server.id)).toEqual([
      expect.objectContaining({ status: 'failed', error: 'No answer from the server in time' }),
    ]);
  });
});
