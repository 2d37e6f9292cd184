import { type Store, localStorageStore } from 'ra-core';

/** Device preferences that outlive a sign-in: react-admin resets its store on logout. */
export const KEPT_ON_LOGOUT = ['locale', 'shell.sidebar.collapsed'] as const;

/** `base` whose reset() keeps the given keys (the language, the sidebar's collapse). */
export function keepingOnReset(base: Store, keep: readonly string[] = KEPT_ON_LOGOUT): Store {
  return {
    ...base,
    reset() {
      const saved = keep.map((key) => [key, base.getItem(key)] as const);
      base.reset();
      for (const [key, value] of saved) if (value !== undefined) base.setItem(key, value);
    },
  };
}

/** The shell's store: in localStorage under its own prefix, so preferences survive reloads. */
export const createShellStore = () => keepingOnReset(localStorageStore('1', 'Stackdeck'));
