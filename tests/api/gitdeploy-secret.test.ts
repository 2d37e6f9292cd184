import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type GitFixture, startGitFixture } from './gitdeployFixture';

/** The webhook's secret is shown on asking (its owner pastes it again), and changes with regenerate. */
let f: GitFixture;

beforeAll(async () => {
  f = await startGitFixture();
  const res = await f.call('POST', f.wsid('gitdeploy'), {
    repository: 'https://git.example/team/site.git',
    branch: 'main',
  });
  expect(res.statusCode, res.body).toBe(201);
});
afterAll(() => f.close());

describe('the webhook secret', () => {
  it('is shown on asking, the one a regenerate made', async () => {
    const made = await f.call('PATCH', f.ofApp('gitwebhook'), { regenerate: true });
    expect(made.statusCode, made.body).toBe(200);
    const secret = made.json().secret as string;
    expect(secret).toMatch(/^[0-9a-f]{64}$/);
    expect((await f.call('GET', f.ofApp('gitwebhook'))).json().secret).toBeNull();
    const shown = await f.call('GET', f.ofApp('gitwebhook/secret'));
    expect(shown.statusCode, shown.body).toBe(200);
    expect(shown.json()).toEqual({ secret });
    const again = (await f.call('PATCH', f.ofApp('gitwebhook'), { regenerate: true })).json();
    expect((await f.call('GET', f.ofApp('gitwebhook/secret'))).json().secret).toBe(again.secret);
    expect(again.secret).not.toBe(secret);
  });
});
