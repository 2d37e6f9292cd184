import { expect } from 'vitest';
import type { TestUser } from './helpers';
import { type FakeAgent, startFakeAgent } from './fakeAgent';
import type { BuildOptions } from '../../server/app';
import { type LiveApp, startLiveApp } from './liveApp';
import { addSysuser } from './serverRows';

/**
 * The set-up of the git deployment API tests (gitdeploy*.test.ts): a panel, a fake agent that
 * records what it is asked (its deploys answer a new commit each, fail when the script says
 * `false`, and wait while `hold()` holds them), and the app `shop` of the system user alice.
 */
export const KEY =
  '127.0.0.1 ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHostKeyForTheTestsOnly0123456789abcd';

export type GitFixture = Awaited<ReturnType<typeof startGitFixture>>;

/** `options`: the panel's clock, say, for a test that moves it. */
export async function startGitFixture(options: Pick<BuildOptions, 'clock'> = {}) {
  const live: LiveApp = await startLiveApp(options);
  const owner: TestUser = await live.t.user();
  let release = 0;
  let gate: Promise<void> | null = null;
  const agent: FakeAgent = await startFakeAgent(live, owner, {
    'webapp.apply': (a: { name: string; user: string }) => ({
      path: `/home/${a.user}/apps/${a.name}`,
    }),
    'gitdeploy.hostkey': () => ({
      lines: [KEY],
      fingerprints: ['256 SHA256:abc 127.0.0.1 (ED25519)'],
    }),
    'gitdeploy.branches': () => ({ branches: [{ name: 'main', commit: 'a'.repeat(40) }] }),
    'gitdeploy.deploy': async (a: { branch: string; script: string }, ctx) => {
      ctx.progress('Cloning', 2);
      while (gate) await gate;
      ctx.progress('building', 4);
      const commit = (++release).toString(16).padEnd(40, '0');
      return a.script.includes('false')
        ? {
            status: 'failed',
            commit,
            release: null,
            output: 'boom',
            message: 'The deployment script failed (exit 1)',
          }
        : {
            status: 'completed',
            commit,
            release: `r${release}`,
            output: `built ${a.branch}`,
            message: null,
          };
    },
    'gitdeploy.rollback': () => ({
      status: 'completed',
      commit: null,
      release: '20260101000000000-0000000000aa',
      output: '',
      message: null,
    }),
  });
  await addSysuser(live.t.app.db, agent.server.id, 'alice');
  const base = (p: string) => `/api/v1/${p}/servers/${agent.server.id}/users/${owner.id}`;
  const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown) =>
    live.t.call(method, url, { token: owner.token, body });
  const created = await call('POST', base('webstacks'), {
    name: 'shop',
    domains: ['shop.example'],
    sys_user: 'alice',
  });
  expect(created.statusCode, created.body).toBe(201);
  const shop = created.json().id as number;
  const ofApp = (p: string) => base(`${p}/webstacks/${shop}`);

  type Row = Record<string, unknown> & { id: number; status: string; trigger: string };
  const deploys = async () => (await call('GET', ofApp('gitdeploy/deploys'))).json().data as Row[];

  return {
    live,
    owner,
    agent,
    shop,
    call,
    path: base,
    ofApp,
    wsid: (p: string) => `${base(p)}?wsid=${shop}`,
    deploys,
    asked: (name: string) => agent.calls.filter((c) => c.name === name).map((c) => c.args),
    /** Holds the fake agent's deploys (after their first step) until the function returned. */
    hold(): () => void {
      let open = () => {};
      gate = new Promise<void>((resolve) => {
        open = () => {
          gate = null;
          resolve();
        };
      });
      return open;
    },
    /** The deploy once it ended. */
    async settled(id: number): Promise<Row> {
      for (let i = 0; i < 200; i++) {
        const row = (await deploys()).find((d) => d.id === id)!;
        if (row.status !== 'running') return row;
        await new Promise((r) => setTimeout(r, 20));
      }
      throw new Error('deploy still running');
    },
    async close() {
      live.disconnectAll();
      await live.close();
    },
  };
}
