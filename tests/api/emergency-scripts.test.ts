import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OpContext } from '../../agent/ops/types';
import type { TestUser } from './helpers';
import { type FakeAgent, startFakeAgent } from './fakeAgent';
import { type LiveApp, startLiveApp } from './liveApp';

/**
 * The admins' 911 tool through the API, with fake agents whose scripts say lines as the real
 * ones do: every run needs a fresh mailed code, spent once and bound to that run (script and
 * servers), checked before any server is asked; admin staff and users are refused; the output
 * is the run's tasks; the audit names the admin and never holds the code.
 * tests/system/emergency-scripts.test.ts runs the real scripts on a sandbox server.
 */
let live: LiveApp;
let admin: TestUser;
let staff: TestUser;
let alice: TestUser;
let bob: TestUser;
let aliceAgent: FakeAgent;
let bobAgent: FakeAgent;

const RUN = '/api/v1/admin/common-script';

function scriptOps() {
  return {
    'emergency.free-disk': (args: { keep_days: number }, ctx: OpContext) => {
      ctx.progress('apt-get clean (package cache: 1.0 MB)', 0);
      ctx.progress(`removed /var/log/syslog.4.gz, older than ${args.keep_days} days`, 6);
      return { summary: 'Freed 1.0 MB' };
    },
    'emergency.restart-web-stack': (_args: object, ctx: OpContext) => {
      ctx.progress('nginx: running, PID 10 -> 11', 5);
      return { summary: 'Restarted nginx' };
    },
    'emergency.disk-usage': () => {
      throw new Error('df failed (1)');
    },
  };
}

/** The code each user was mailed last, to tell the next mail from it. */
const lastCodes = new Map<number, string>();

async function newCode(who: TestUser = admin): Promise<string> {
  // The SMTP delivery follows the answer: wait for the new mail, not the one before it. A
  // delivery the loaded test SMTP lost is asked again (a new code voids the older anyway).
  for (let ask = 0; ask < 3; ask += 1) {
    const res = await live.t.call('GET', `/api/v1/users/${who.id}/otp`, { token: who.token });
    expect(res.statusCode).toBe(200);
    const end = Date.now() + 3000;
    while (Date.now() < end) {
      const code = await live.t.codeIn(who.email).catch(() => null);
      if (code && code !== lastCodes.get(who.id)) {
        lastCodes.set(who.id, code);
        return code;
      }
      await new Promise((r) => setTimeout(r, 20));
    }
  }
  throw new Error(`no new code mailed to ${who.email}`);
}

const run = (otp: string | null, body: unknown, token = admin.token) =>
  live.t.call('PATCH', otp === null ? RUN : `${RUN}?otp=${otp}`, { token, body });

const callsOf = (agent: FakeAgent) => agent.calls.filter((c) => c.name.startsWith('emergency.'));

interface Task {
  id: number;
  kind: string;
  status: string;
  name: string;
  events: { event: string; code: number }[];
}

async function taskEnded(taskId: number): Promise<Task> {
  const end = Date.now() + 5000;
  for (;;) {
    const res = await live.t.call('GET', `/api/v1/clone-events/users/${admin.id}?id=${taskId}`, {
      token: admin.token,
    });
    const task = (res.json() as { data: Task[] }).data[0];
    if (task && task.status !== 'running') return task;
    if (Date.now() > end) throw new Error(`task ${taskId} still running`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

beforeAll(async () => {
  live = await startLiveApp();
  admin = await live.t.user({ admin: true });
  staff = await live.t.user({ staff: true });
  alice = await live.t.user();
  bob = await live.t.user();
  aliceAgent = await startFakeAgent(live, alice, scriptOps(), 'alice-web');
  bobAgent = await startFakeAgent(live, bob, scriptOps(), 'bob-web');
});

afterAll(async () => {
  await live?.close();
});

describe('the library', () => {
  it('lists the scripts and reads one by id; an unknown id is 404', async () => {
    const list = await live.t.call('GET', '/api/v1/admin/911-scripts', { token: admin.token });
    expect(list.statusCode).toBe(200);
    const ids = (list.json() as { data: { id: string }[] }).data.map((s) => s.id);
    expect(ids).toEqual([
      'restart-web-stack',
      'free-disk',
      'unlock-package-manager',
      'restart-database',
      'disk-usage',
    ]);
    const one = await live.t.call('GET', '/api/v1/admin/911-scripts/free-disk', {
      token: admin.token,
    });
    expect(one.json()).toMatchObject({
      id: 'free-disk',
      name: 'Free disk space',
      params: [{ name: 'keep_days', choices: [1, 3, 7, 14, 30], default: 7 }],
    });
    const none = await live.t.call('GET', '/api/v1/admin/911-scripts/rm-rf', {
      token: admin.token,
    });
    expect(none.statusCode).toBe(404);
  });

  it('is the admins’ alone: staff and users get 403, nobody 401', async () => {
    for (const who of [staff, alice]) {
      const res = await live.t.call('GET', '/api/v1/admin/911-scripts', { token: who.token });
      expect(res.statusCode).toBe(403);
    }
    expect((await live.t.call('GET', '/api/v1/admin/911-scripts')).statusCode).toBe(401);
  });
});

describe('a run', () => {
  it("runs on any users' servers with a fresh code; output streams into the run's tasks", async () => {
    const otp = await newCode();
    const res = await run(otp, {
      script: 'free-disk',
      servers: [aliceAgent.server.id, bobAgent.server.id],
      params: { keep_days: 3 },
    });
    expect(res.statusCode).toBe(202);
    const answer = res.json() as {
      id: number;
      script: string;
      servers: { server_id: number; server_name: string; task_id: number }[];
    };
    expect(answer).toMatchObject({
      script: 'free-disk',
      servers: [
        { server_id: aliceAgent.server.id, server_name: 'alice-web' },
        { server_id: bobAgent.server.id, server_name: 'bob-web' },
      ],
    });
    for (const target of answer.servers) {
      const task = await taskEnded(target.task_id);
      expect(task).toMatchObject({ kind: 'script', status: 'completed' });
      expect(task.events.map((e) => e.event)).toEqual([
        `Free disk space on ${target.server_name}, started by ${admin.email}`,
        'apt-get clean (package cache: 1.0 MB)',
        'removed /var/log/syslog.4.gz, older than 3 days',
        'Freed 1.0 MB',
      ]);
      expect(task.events.at(-1)?.code).toBe(10);
    }
    expect(callsOf(aliceAgent)).toEqual([{ name: 'emergency.free-disk', args: { keep_days: 3 } }]);
    expect(callsOf(bobAgent)).toEqual([{ name: 'emergency.free-disk', args: { keep_days: 3 } }]);

    // The audit: each server's activity and the admin's account activity, never the code.
    for (const [agent, owner] of [
      [aliceAgent, alice],
      [bobAgent, bob],
    ] as const) {
      const log = await live.t.call(
        'GET',
        `/api/v1/activity/servers/${agent.server.id}/users/${owner.id}`,
        { token: owner.token },
      );
      const lines = (log.json() as { data: { message: string; who: string; status: string }[] })
        .data;
      expect(lines[0]).toMatchObject({
        message: '911 script: Free disk space',
        who: `admin ${admin.email} as ${owner.email}`,
        status: 'done',
      });
      expect(JSON.stringify(lines)).not.toContain(otp);
    }
    const mine = await live.t.call('GET', `/api/v1/accntactivity/users/${admin.id}`, {
      token: admin.token,
    });
    const activity = JSON.stringify(mine.json());
    expect(activity).toContain('Ran the 911 script \\"Free disk space\\" on alice-web, bob-web');
    expect(activity).not.toContain(otp);
    const row = await live.t.app.db
      .selectFrom('emergency_runs')
      .selectAll()
      .where('id', '=', answer.id)
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(otp);
    expect(row).toMatchObject({ admin_email: admin.email, script: 'free-disk' });
  });

  it('a script without parameters gets none; a failing one fails its task with its words', async () => {
    const ok = await run(await newCode(), {
      script: 'restart-web-stack',
      servers: [aliceAgent.server.id],
    });
    expect(ok.statusCode).toBe(202);
    const okTask = await taskEnded(
      (ok.json() as { servers: { task_id: number }[] }).servers[0]!.task_id,
    );
    expect(okTask.status).toBe('completed');
    expect(okTask.events.map((e) => e.event)).toContain('nginx: running, PID 10 -> 11');

    const bad = await run(await newCode(), { script: 'disk-usage', servers: [bobAgent.server.id] });
    const badTask = await taskEnded(
      (bad.json() as { servers: { task_id: number }[] }).servers[0]!.task_id,
    );
    expect(badTask).toMatchObject({ status: 'failed' });
    expect(badTask.events.at(-1)?.event).toBe('df failed (1)');
    const log = await live.t.call(
      'GET',
      `/api/v1/activity/servers/${bobAgent.server.id}/users/${bob.id}`,
      { token: bob.token },
    );
    expect((log.json() as { data: unknown[] }).data[0]).toMatchObject({
      message: '911 script: Show what eats disk',
      status: 'failed',
      error: 'df failed (1)',
    });
  });
});

describe('the one-time code', () => {
  const body = () => ({ script: 'restart-web-stack', servers: [aliceAgent.server.id] });

  it('is required: a missing or malformed one is refused before anything runs', async () => {
    const before = callsOf(aliceAgent).length;
    const missing = await run(null, body());
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ errors: { otp: expect.any(String) } });
    expect((await run('12ab56', body())).statusCode).toBe(400);
    expect(callsOf(aliceAgent)).toHaveLength(before);
  });

  it('a wrong code is refused and audited; the right one still works after it', async () => {
    const otp = await newCode();
    const wrong = otp === '000000' ? '000001' : '000000';
    const before = callsOf(aliceAgent).length;
    const res = await run(wrong, body());
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      errors: { otp: 'Invalid, used or expired code: ask for a new one' },
    });
    expect(callsOf(aliceAgent)).toHaveLength(before);
    const mine = await live.t.call('GET', `/api/v1/accntactivity/users/${admin.id}`, {
      token: admin.token,
    });
    expect(JSON.stringify(mine.json())).toContain('911 script refused: wrong, used or expired');
    expect((await run(otp, body())).statusCode).toBe(202);
  });

  it('is spent by its run: replayed for the same run, another script or other servers, it is refused', async () => {
    const otp = await newCode();
    const first = await run(otp, body());
    expect(first.statusCode).toBe(202);
    await taskEnded((first.json() as { servers: { task_id: number }[] }).servers[0]!.task_id);
    const aliceBefore = callsOf(aliceAgent).length;
    const bobBefore = callsOf(bobAgent).length;
    for (const replay of [
      body(),
      { script: 'free-disk', servers: [aliceAgent.server.id] },
      { script: 'restart-web-stack', servers: [bobAgent.server.id] },
      { script: 'restart-web-stack', servers: [aliceAgent.server.id, bobAgent.server.id] },
    ]) {
      const res = await run(otp, replay);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ errors: { otp: expect.any(String) } });
    }
    expect(callsOf(aliceAgent)).toHaveLength(aliceBefore);
    expect(callsOf(bobAgent)).toHaveLength(bobBefore);
  });

  it('only the newest code counts: asking for another voids the older', async () => {
    const older = await newCode();
    const newer = await newCode();
    expect((await run(older, body())).statusCode).toBe(400);
    expect((await run(newer, body())).statusCode).toBe(202);
  });

  it("is the admin's own: another admin's code does not confirm this admin's run", async () => {
    const other = await live.t.user({ admin: true });
    const theirs = await newCode(other);
    expect((await run(theirs, body())).statusCode).toBe(400);
    expect((await run(theirs, body(), other.token)).statusCode).toBe(202);
  });

  it('two runs sent at once with one code: exactly one starts', async () => {
    const otp = await newCode();
    const before = callsOf(aliceAgent).length;
    const answers = await Promise.all([run(otp, body()), run(otp, body()), run(otp, body())]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([202, 400, 400]);
    const started = answers.find((a) => a.statusCode === 202)!;
    await taskEnded((started.json() as { servers: { task_id: number }[] }).servers[0]!.task_id);
    expect(callsOf(aliceAgent)).toHaveLength(before + 1);
  });

  it('staff and users are refused with 403 even holding a code of their own; nothing runs', async () => {
    const before = callsOf(aliceAgent).length;
    for (const who of [staff, alice]) {
      const otp = await newCode(who);
      const res = await run(otp, body(), who.token);
      expect(res.statusCode).toBe(403);
    }
    expect((await live.t.call('PATCH', `${RUN}?otp=123456`, { body: body() })).statusCode).toBe(
      401,
    );
    expect(callsOf(aliceAgent)).toHaveLength(before);
  });
});

describe('what a run may name', () => {
  it('refuses a parameter the script does not take, a value off its list, an unknown server; the code is not spent', async () => {
    const otp = await newCode();
    const before = callsOf(aliceAgent).length;
    const cases: [unknown, string][] = [
      [
        { script: 'free-disk', servers: [aliceAgent.server.id], params: { wait_seconds: 30 } },
        'params.wait_seconds',
      ],
      [
        { script: 'free-disk', servers: [aliceAgent.server.id], params: { keep_days: 5 } },
        'params.keep_days',
      ],
      [
        { script: 'free-disk', servers: [aliceAgent.server.id], params: { command: 'rm -rf /' } },
        'params',
      ],
      [{ script: 'rm -rf /', servers: [aliceAgent.server.id] }, 'script'],
      [{ script: 'free-disk', servers: [999_999] }, 'servers'],
      [{ script: 'free-disk', servers: [] }, 'servers'],
      [{ script: 'free-disk', servers: [aliceAgent.server.id, aliceAgent.server.id] }, 'servers'],
    ];
    for (const [sent, field] of cases) {
      const res = await run(otp, sent);
      expect(res.statusCode, JSON.stringify(sent)).toBe(400);
      expect(Object.keys((res.json() as { errors: object }).errors)).toContain(field);
    }
    expect(callsOf(aliceAgent)).toHaveLength(before);
    const ok = await run(otp, { script: 'free-disk', servers: [aliceAgent.server.id] });
    expect(ok.statusCode).toBe(202);
    await taskEnded((ok.json() as { servers: { task_id: number }[] }).servers[0]!.task_id);
    expect(callsOf(aliceAgent).at(-1)).toEqual({
      name: 'emergency.free-disk',
      args: { keep_days: 7 },
    });
  });

  it('an offline server: its task fails saying so, the code is spent', async () => {
    const offline = await live.newServer(alice, 'alice-offline');
    const res = await run(await newCode(), {
      script: 'restart-web-stack',
      servers: [offline.id],
    });
    expect(res.statusCode).toBe(202);
    const task = await taskEnded(
      (res.json() as { servers: { task_id: number }[] }).servers[0]!.task_id,
    );
    expect(task.status).toBe('failed');
    expect(task.events.at(-1)?.event).toMatch(/offline/);
  });
});
