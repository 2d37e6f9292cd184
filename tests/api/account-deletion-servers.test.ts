import { afterAll, beforeAll, expect, it } from 'vitest';
import { startFakeAgent } from './fakeAgent';
import { type LiveApp, startLiveApp } from './liveApp';

/**
 * Deleting an account takes its servers out of the panel the way `DELETE servers/{sid}` does:
 * each online agent is asked to remove itself, so none keeps running for a server the panel
 * forgot (the rows' cascade alone would leave them connected-and-refused forever).
 */
let live: LiveApp;
beforeAll(async () => {
  live = await startLiveApp();
});
afterAll(async () => {
  await live?.close();
});

it("asks each of the account's online agents to remove itself, then the servers are gone", async () => {
  const doomed = await live.t.user();
  const keeper = await live.t.user();
  const uninstalled = new Set<string>();
  const agentOf = async (owner: typeof doomed, name: string) => {
    const agent = await startFakeAgent(
      live,
      owner,
      {
        'agent.uninstall': () => {
          uninstalled.add(name);
          return { removed: true };
        },
      },
      name,
    );
    return agent;
  };
  const [a, b, kept] = await Promise.all([
    agentOf(doomed, 'doomed-1'),
    agentOf(doomed, 'doomed-2'),
    agentOf(keeper, 'kept-1'),
  ]);
  const res = await live.t.call('DELETE', `/api/v1/users/${doomed.id}`, {
    token: doomed.token,
    body: { password: doomed.password },
  });
  expect(res.statusCode, res.body).toBe(200);
  expect([...uninstalled].sort()).toEqual(['doomed-1', 'doomed-2']);
  for (const agent of [a, b])
    expect(
      await live.t.app.db
        .selectFrom('servers')
        .select('id')
        .where('id', '=', agent.server.id)
        .executeTakeFirst(),
    ).toBeUndefined();
  // Another account's server is not touched.
  expect(kept.calls.map((c) => c.name)).not.toContain('agent.uninstall');
  expect(await live.t.app.agents.isOnline(kept.server.id)).toBe(true);
});
