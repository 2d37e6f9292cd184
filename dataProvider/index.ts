import type { ResourceRegistry } from './dataProvider';
import { createAuthProvider } from './authProvider';
import { createDataProvider } from './dataProvider';
import { fetchHttpClient } from './http';
import { storageSessionStore } from './session';

/**
 * The declarations load on first use, not with the first page: /login needs none of them
 * besides the few schemas its own form imports, and the registry grows with every issue.
 */
export const loadResources = (): Promise<ResourceRegistry> =>
  import('../resources').then((m) => m.resources as ResourceRegistry);

/** The browser's wiring: one session store, one dataProvider, one authProvider. */
export function createProviders(
  storage: Storage = window.localStorage,
  tab: Storage = window.sessionStorage,
) {
  const sessions = storageSessionStore(storage, tab);
  const dataProvider = createDataProvider({
    http: fetchHttpClient(() => sessions.get()?.token ?? null),
    resources: loadResources,
    context: () => ({ uid: sessions.get()?.userId ?? null }),
    // A changed profile, photo or role must not linger in the kept identity.
    onWrite: (resource) => {
      if (resource === 'users' || resource.startsWith('admin-')) authProvider.forgetUser();
    },
  });
  const authProvider = createAuthProvider({ dataProvider, sessions, resources: loadResources });
  return { sessions, dataProvider, authProvider };
}

export type { StackdeckDataProvider, ResourceRegistry } from './dataProvider';
export type { StackdeckAuthProvider } from './authProvider';
