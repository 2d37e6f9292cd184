import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../scripts/sandbox/index';
import { type Panel, type ServerRecord, installedSandbox, startPanel } from './harness/panel';
import { pageOf } from './harness/curl';

/**
 * Per-app limits on a real server (issue 22, finding 1): a bounded process spawner run as an
 * app's user by supervisor and by cron's "Run now" is held to the app's limit, while the agent
 * answers and another app's page is served; the same spawner started as that user outside the
 * panel's wrapper (setpriv: no PAM, no wrapper) goes past the limit, so the limit is what held
 * it. The spawner is bounded (150 forks at most, each child ends by itself after a few
 * seconds) instead of an endless fork bomb: the sandbox shares the host's kernel and cgroups,
 * so an unbounded one would hit the host too.
 */
let panel: Panel;
let sb: Sandbox;
let server: ServerRecord;

const LIMIT = 48;
const FORKS = 150;
const path = (p: string) => `${p}/servers/${server.id}/users/${panel.uid}`;
/** Forks up to N children that each live HOLD seconds; says how many it made; then waits HOLD. */
const SPAWNER = `import os, sys, time
n, hold = int(sys.argv[1]), float(sys.argv[2])
made = failed = 0
for _ in range(n):
    try:
        pid = os.fork()
    except OSError:
        failed += 1
        continue
    if pid == 0:
        time.sleep(hold)
        os._exit(0)
    made += 1
print(f"made {made} failed {failed}", flush=True)
time.sleep(hold)
`;
const spawn = (hold: number) => `/usr/bin/python3 /home/alice/spawn.py ${FORKS} ${hold}`;

/** alice's processes in the sandbox (the spawner's parent, its children, its app's PHP). */
async function aliceProcesses(): Promise<number> {
  const res = await sb.exec(['pgrep', '-c', '-u', 'alice']);
  return Number(res.stdout.trim() || 0);
}

async function createApp(name: string, user: string) {
  const res = await panel.api('POST', path('webstacks'), {
    name,
    domains: [`${name}.test`],
    sys_user: user,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: number };
}

beforeAll(async () => {
  panel = await startPanel();
  ({ sb, server } = await installedSandbox(panel, 'limits', [
    'nginx',
    'php8.2-fpm',
    'supervisor',
    'cron',
  ]));
  for (const user_name of ['alice', 'bob']) {
    const res = await panel.api('POST', path('sysusers'), {
      user_name,
      password: 'a long system password 1',
    });
    expect(res.statusCode, res.body).toBe(201);
  }
  await sb.execOk(['runuser', '-u', 'alice', '--', 'tee', '/home/alice/spawn.py'], {
    input: SPAWNER,
  });
});

afterAll(async () => {
  await sb?.stop();
  await panel?.close();
});

describe('per-app limits on a sandbox server', () => {
  let app: { id: number };

  it("writes the app's limits for its user: the wrapper's file and pam_limits'", async () => {
    app = await createApp('busy', 'alice');
    await createApp('calm', 'bob');
    const res = await panel.api('PUT', path(`applimits/webstacks/${app.id}`), {
      processes: LIMIT,
      memory_mb: 128,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ user_limits: { processes: LIMIT, memory_mb: 128 } });
    const conf = await sb.execOk(['cat', '/etc/stackdeck-limits/alice.conf']);
    expect(conf.stdout).toContain(`processes=${LIMIT}\nmemory_mb=128\n`);
    const pam = await sb.execOk(['cat', '/etc/security/limits.d/stackdeck-alice.conf']);
    expect(pam.stdout).toContain(`alice hard nproc ${LIMIT}`);
    const wrapper = await sb.execOk([
      'stat',
      '-c',
      '%U %a',
      '/usr/local/lib/stackdeck/run-limited',
    ]);
    expect(wrapper.stdout.trim()).toBe('root 755');
  });

  it('holds a supervisor program that forks to the limit, while the server keeps answering', async () => {
    const job = await panel.api('POST', path('svjobs'), {
      name: 'spawner',
      command: spawn(20),
      directory: '/home/alice',
      user: 'alice',
      numprocs: 1,
      autostart: true,
      autorestart: false,
    });
    expect(job.statusCode, job.body).toBe(201);
    // Until the spawner says how far it got: alice's count, the agent and another app's page.
    let most = 0;
    let said = '';
    const end = Date.now() + 30_000;
    while (!said && Date.now() < end) {
      most = Math.max(most, await aliceProcesses());
      const procs = await panel.api('GET', path('svjobs/procs'));
      expect(procs.statusCode).toBe(200);
      expect((await pageOf(sb, 'calm.test')).status).toBe(200);
      const log = await panel.api('GET', `${path('svjobs/logs')}?name=spawner`);
      said = /made \d+ failed \d+/.exec(log.json().text)?.[0] ?? '';
    }
    most = Math.max(most, await aliceProcesses());
    const [, made, failed] = /made (\d+) failed (\d+)/.exec(said)!.map(Number);
    console.info(`supervisor spawner: ${said}; alice held ${most} processes at most`);
    expect(made).toBeLessThan(LIMIT);
    expect(failed).toBeGreaterThan(FORKS - LIMIT);
    expect(most).toBeLessThanOrEqual(LIMIT);
    // Through the wrapper, the command as the user wrote it.
    const conf = await sb.execOk(['cat', '/etc/supervisor/conf.d/stackdeck-spawner.conf']);
    expect(conf.stdout).toContain(`command=/usr/local/lib/stackdeck/run-limited -- ${spawn(20)}\n`);
    const gone = await panel.api('DELETE', path('svjobs/spawner'));
    expect(gone.statusCode, gone.body).toBeLessThan(300);
  });

  it("holds cron's jobs too: Run now, and the line cron runs goes through the wrapper", async () => {
    const job = await panel.api('POST', path('cronjobs'), {
      sys_user: 'alice',
      schedule: '0 4 * * *',
      command: `${spawn(2)} # 50% of it`,
    });
    expect(job.statusCode, job.body).toBe(201);
    const tab = (await sb.execOk(['crontab', '-l', '-u', 'alice'])).stdout;
    expect(tab).toContain(
      `SHELL=/usr/local/lib/stackdeck/run-limited\n# stackdeck:job ${job.json().id}\n0 4 * * * ${spawn(2)} # 50\\% of it\nSHELL=/bin/sh\n`,
    );
    const run = await panel.api('POST', path(`cronjobs/${job.json().id}/run`));
    expect(run.statusCode, run.body).toBe(200);
    const output = run.json().output as string;
    expect(output, run.body).toMatch(/made \d+ failed \d+/);
    const [, made] = /made (\d+) failed \d+/.exec(output)!.map(Number);
    console.info(`cron Run now spawner: ${/made \d+ failed \d+/.exec(output)![0]}`);
    expect(made).toBeLessThan(LIMIT);
    // Memory: one process may not take more than the app's 128 MiB.
    const big = await panel.api('PUT', path(`cronjobs/${job.json().id}`), {
      sys_user: 'alice',
      schedule: '0 4 * * *',
      command: `/usr/bin/python3 -c "b = bytearray(300 * 1024 * 1024)"`,
    });
    expect(big.statusCode, big.body).toBe(200);
    const ran = await panel.api('POST', path(`cronjobs/${job.json().id}/run`));
    expect(ran.json()).toMatchObject({ code: 1 });
    expect(ran.json().output).toContain('MemoryError');
  });

  it('gives a user without a setting the defaults, for pam_limits too, with its first job', async () => {
    const conf = '/etc/security/limits.d/stackdeck-bob.conf';
    expect((await sb.exec(['test', '-e', conf])).code).toBe(1);
    const job = await panel.api('POST', path('cronjobs'), {
      sys_user: 'bob',
      schedule: '0 5 * * *',
      command: 'true',
    });
    expect(job.statusCode, job.body).toBe(201);
    expect((await sb.execOk(['cat', conf])).stdout).toContain('bob hard nproc 256\n');
    // A login of bob's (runuser goes through PAM) gets it, outside the panel's jobs.
    const login = await sb.execOk(['runuser', '-u', 'bob', '--', 'bash', '-c', 'ulimit -Hu']);
    expect(login.stdout.trim()).toBe('256');
  });

  it('lets the same spawner past the limit outside the wrapper: the limit is what held it', async () => {
    const res = await sb.execOk(
      ['setpriv', '--reuid=alice', '--regid=alice', '--init-groups', ...spawn(2).split(' ')],
      { timeoutMs: 30_000 },
    );
    const [, made] = /made (\d+) failed (\d+)/.exec(res.stdout)!.map(Number);
    console.info(`spawner outside the wrapper: ${res.stdout.trim()}`);
    expect(made).toBeGreaterThan(LIMIT);
  });
});
