import { describe, expect, it } from 'vitest';
import { shownName } from '../../src/pages/servers/serverName';
import { installState } from '../../src/pages/servers/useInstallEvents';

describe('shownName', () => {
  it('shows a pending server by the name the user chose, its cs- name beside it', () => {
    expect(shownName({ name: 'cs-1a2b', pending_name: 'web-1' })).toEqual({
      name: 'web-1',
      id: 'cs-1a2b',
    });
  });

  it('keeps the record name when there is no usable chosen name', () => {
    expect(shownName({ name: 'cs-1a2b', pending_name: null })).toEqual({
      name: 'cs-1a2b',
      id: null,
    });
    expect(shownName({ name: 'cs-1a2b', pending_name: '  ' })).toEqual({
      name: 'cs-1a2b',
      id: null,
    });
    // A connected server was renamed already; a leftover pending name does not hide it.
    expect(shownName({ name: 'web-1', pending_name: 'other' })).toEqual({
      name: 'web-1',
      id: null,
    });
  });
});

describe('installState', () => {
  const at = '2026-01-01T00:00:00.000Z';
  it('is done at 100 % from the code-10 event', () => {
    const state = installState([
      { event: 'Agent started; waiting for it to connect', code: 9, created_at: at },
      { event: 'The agent is connected', code: 10, created_at: at },
    ]);
    expect(state).toMatchObject({ done: true, failed: false, percent: 100 });
  });

  it('is not done before it, nor after a failure', () => {
    expect(installState([{ event: 'x', code: 9, created_at: at }])).toMatchObject({
      done: false,
      percent: 90,
    });
    expect(installState([{ event: 'x', code: -1, created_at: at }])).toMatchObject({
      done: false,
      failed: true,
    });
  });
});
