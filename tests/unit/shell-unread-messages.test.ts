import { describe, expect, it } from 'vitest';
import type { TaskPush } from '../../src/live/taskPushLogic';
import { unreadAfterPush, unreadBadge } from '../../src/shell/unreadCount';

const push = (id: number, kind: string, status: TaskPush['status'] = 'running'): TaskPush => ({
  id,
  kind,
  status,
  event: status === 'running' ? 'step' : null,
  code: status === 'running' ? 3 : null,
});

describe('the messages unread count', () => {
  it('counts each listed task once, whatever its steps, as it moves or ends', () => {
    let unread: ReadonlySet<number> = new Set();
    unread = unreadAfterPush(unread, push(1, 'install'));
    unread = unreadAfterPush(unread, push(1, 'install', 'completed'));
    unread = unreadAfterPush(unread, push(2, 'gitdeploy', 'failed'));
    unread = unreadAfterPush(unread, push(3, 'clone'));
    expect([...unread]).toEqual([1, 2, 3]);
  });

  it('ignores work the panel does not list and pushes it cannot read', () => {
    const before: ReadonlySet<number> = new Set([4]);
    expect(unreadAfterPush(before, push(5, 'backup', 'completed'))).toBe(before);
    expect(unreadAfterPush(before, null)).toBe(before);
    expect(unreadAfterPush(before, push(4, 'clone', 'completed'))).toBe(before);
  });

  it('shows nothing at zero and caps the number', () => {
    expect(unreadBadge(0)).toBeNull();
    expect(unreadBadge(3)).toBe('3');
    expect(unreadBadge(120)).toBe('99+');
  });
});
