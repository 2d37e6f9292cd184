import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Clone } from '../../resources/clone-events';
import type { TestUser } from './helpers';
import { type GitFixture, startGitFixture } from './gitdeployFixture';

/**
 * A git deploy is long work the header's messages panel follows (issue 22): it is listed in
 * clone-events for the app's owner, as kind `gitdeploy` named after the app, with its state;
 * another user's list never shows it, and the owner's list is not theirs to read.
 */
let f: GitFixture;
let other: TestUser;

beforeAll(async () => {
  f = await startGitFixture();
  other = await f.live.t.user();
  const configured = await f.call('POST', f.wsid('gitdeploy'), {
    repository: 'git@git.example:team/shop.git',
    branch: 'main',
    script: 'echo ok',
  });
  expect(configured.statusCode, configured.body).toBe(201);
});
afterAll(async () => {
  await f.close();
});

const messagesOf = async (uid: number, token: string) =>
  f.live.t.call('GET', `/api/v1/clone-events/users/${uid}?_sort=created_at&_order=DESC`, {
    token,
  });

describe('deploys in the messages panel', () => {
  it('lists a deploy for its owner with the app name and its end state', async () => {
    const res = await f.call('POST', f.ofApp('gitdeploy/deploys'));
    expect(res.statusCode, res.body).toBe(202);
    const { id, task_id } = res.json() as { id: number; task_id: number };
    await f.settled(id);
    const list = await messagesOf(f.owner.id, f.owner.token);
    expect(list.statusCode, list.body).toBe(200);
    const listed = (list.json().data as Clone[]).find((t) => t.id === task_id);
    expect(listed).toMatchObject({ kind: 'gitdeploy', name: 'shop', status: 'completed' });
    expect(listed!.events.map((e) => e.event)).toContain('Cloning');
  });

  it("does not list it for another user, nor let them read the owner's list", async () => {
    const own = await messagesOf(other.id, other.token);
    expect(own.statusCode).toBe(200);
    expect(own.json().data).toEqual([]);
    const theirs = await messagesOf(f.owner.id, other.token);
    expect([403, 404]).toContain(theirs.statusCode);
  });
});
