import { describe, expect, it } from 'vitest';
import {
  CLONE_POLL_MS,
  NO_MESSAGES,
  cloneState,
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
