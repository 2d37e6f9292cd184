import { memoryStore } from 'ra-core';
import { describe, expect, it } from 'vitest';
import { keepingOnReset } from '../../src/shell/store';

describe('shell store', () => {
  it('keeps the language and sidebar choice when react-admin resets the store at logout', () => {
    const store = keepingOnReset(memoryStore());
    store.setup();
    store.setItem('locale', 'de');
    store.setItem('shell.sidebar.collapsed', true);
    store.setItem('users.listParams', { page: 3 });
    store.reset();
    expect(store.getItem('locale')).toBe('de');
    expect(store.getItem('shell.sidebar.collapsed')).toBe(true);
    expect(store.getItem('users.listParams')).toBeUndefined();
  });

  it('does not invent values that were never set', () => {
    const store = keepingOnReset(memoryStore());
    store.setup();
    store.reset();
    expect(store.getItem('locale')).toBeUndefined();
  });
});
