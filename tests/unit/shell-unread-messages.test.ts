import { describe, expect, it } from 'vitest';
import type { TaskPush } from '../../src/live/taskPushLogic';
import {
  type Unread,
  unreadAfterAlert,
  unreadAfterPush,
  unreadBadge,
} from '../../src/shell/unreadCount';

const push = (id: number, kind: string, status: TaskPush['status'] = 'running'): TaskPush => ({
  id,
  kind,
  status,
  event: status === 'running' ? 'step' : null,
  code: status === 'running' ? 3 : null,
});

describe('the messages unread count', () => {
  it('counts each listed task once, whatever its steps, as it moves or ends', () => {
    let unread: Unread = new Set();
    unread = unreadAfterPush(unread, push(1, 'install'));
    unread = unreadAfterPush(unread, push(1, 'install', 'completed'));
    unread = unreadAfterPush(unread, push(2, 'gitdeploy', 'failed'));
    unread = unreadAfterPush(unread, push(3, 'clone'));
    expect([...unread]).toEqual(['task:1', 'task:2', 'task:3']);
  });

  it('ignores work the panel does not list and pushes it cannot read', () => {
    const before: Unread = new Set(['task:4']);
    expect(unreadAfterPush(before, push(5, 'mailbox-import', 'completed'))).toBe(before);
    expect(unreadAfterPush(before, null)).toBe(before);
    expect(unreadAfterPush(before, push(4, 'clone', 'completed'))).toBe(before);
  });

  it('counts an alert once when it opens and once when it recovers', () => {
    const alert = (id: number, state: string) => ({ id, state, kind: 'offline', subject: 'web1' });
    let unread: Unread = new Set(['task:1']);
    unread = unreadAfterAlert(unread, alert(7, 'open'));
    // The same opening pushed twice (a reconnect's catch-up) is one.
    unread = unreadAfterAlert(unread, alert(7, 'open'));
    unread = unreadAfterAlert(unread, alert(7, 'closed'));
    expect([...unread]).toEqual(['task:1', 'alert:7:open', 'alert:7:closed']);
    // A push it cannot read changes nothing.
    for (const bad of [null, 'x', { id: '7', state: 'open' }, { id: 7, state: 'gone' }])
      expect(unreadAfterAlert(unread, bad)).toBe(unread);
  });

  it('shows nothing at zero and caps the number', () => {
    expect(unreadBadge(0)).toBeNull();
    expect(unreadBadge(3)).toBe('3');
    expect(unreadBadge(120)).toBe('99+');
  });
});
