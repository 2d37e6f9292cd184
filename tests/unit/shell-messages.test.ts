import { describe, expect, it } from 'vitest';
import {
  CLONE_POLL_MS,
  NO_MESSAGES,
  cloneState,
  panelMessages,
  viewToggle,
  visibleMessages,
} from '../../src/shell/messages';
import { en } from '../../src/i18n/en';

const items = Array.from({ length: 12 }, (_, index) => index);
const clone = (status: 'running' | 'completed' | 'failed', events: [string, number][]) => ({
  status,
  events: events.map(([event, code]) => ({ event, code })),
});

describe('messages panel (spec section 2 "Messages panel", section 9)', () => {
  it('shows 5 messages, 10 after View More, 5 again after View Less', () => {
    expect(visibleMessages(items, false)).toHaveLength(5);
    expect(visibleMessages(items, true)).toHaveLength(10);
    expect(visibleMessages(items.slice(0, 3), true)).toHaveLength(3);
  });

  it('offers View More only when there is more, View Less once expanded', () => {
    expect(viewToggle(12, false)).toBe('more');
    expect(viewToggle(5, false)).toBeNull();
    expect(viewToggle(12, true)).toBe('less');
  });

  it('polls every 1000 ms and reads the spec text when empty', () => {
    expect(CLONE_POLL_MS).toBe(1000);
    expect(NO_MESSAGES).toBe('No Messages available.');
    expect(en.shell.messages.empty).toBe(NO_MESSAGES);
  });

  it('shows Success when the last event is completed', () => {
    expect(
      cloneState(
        clone('running', [
          ['copying files', 4],
          ['completed', 10],
        ]),
      ),
    ).toEqual({
      kind: 'success',
    });
    expect(cloneState(clone('completed', [['database', 7]]))).toEqual({ kind: 'success' });
  });

  it('shows cloning with progress = 10 × the last code %', () => {
    expect(
      cloneState(
        clone('running', [
          ['copying files', 2],
          ['database', 7],
        ]),
      ),
    ).toEqual({
      kind: 'cloning',
      percent: 70,
      step: 'database',
    });
    expect(cloneState(clone('running', []))).toEqual({ kind: 'cloning', percent: 0, step: null });
    expect(cloneState(clone('running', [['odd', 15]]))).toMatchObject({ percent: 100 });
  });

  it('shows a failed clone as failed', () => {
    expect(cloneState(clone('failed', [['database', 3]]))).toEqual({ kind: 'failed' });
  });
});

describe('messages panel in the server layout (issue 8)', () => {
  const at = (minutes: number) => new Date(Date.UTC(2025, 0, 1, 12, minutes)).toISOString();
  const clones = [
    { id: 1, name: 'a', status: 'running', created_at: at(10), events: [] },
    { id: 2, name: 'b', status: 'completed', created_at: at(30), events: [] },
  ] as never[];
  const activity = [
    { id: 5, message: 'Added SSH key laptop', status: 'done', error: null, created_at: at(20) },
    { id: 6, message: 'Restarted nginx', status: 'failed', error: 'x', created_at: at(40) },
  ] as const;

  it("shows the server's activity lines among the clones, newest first", () => {
    const merged = panelMessages(clones, activity);
    expect(merged.map((message) => message.key)).toEqual([
      'activity-6',
      'clone-2',
      'activity-5',
      'clone-1',
    ]);
  });

  it('outside the server layout holds the clones only', () => {
    expect(panelMessages(clones).every((message) => message.kind === 'clone')).toBe(true);
  });

  it('shows alerts among them where they last changed: a recovery at its close', () => {
    const alert = (id: number, opened: number, closed: number | null) => ({
      id,
      kind: 'server.offline',
      subject: 'web-1',
      detail: '',
      state: closed === null ? ('open' as const) : ('closed' as const),
      opened_at: at(opened),
      closed_at: closed === null ? null : at(closed),
    });
    const merged = panelMessages(clones, [], [alert(7, 5, 35), alert(8, 25, null)]);
    expect(merged.map((message) => message.key)).toEqual([
      'alert-7',
      'clone-2',
      'alert-8',
      'clone-1',
    ]);
  });
});
