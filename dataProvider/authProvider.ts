import type { AuthProvider, UserIdentity } from 'ra-core';
import { type Role, canAccess } from '../resources/access';
import type { User } from '../resources/user-profile';
import type { LoginResponse } from '../resources/user-security';
import { type RegistrySource, type StackdeckDataProvider, registryLoader } from './dataProvider';
import type { SessionStore } from './session';

export const SESSION_EXPIRED = 'Session expired! Please, login again';

export interface LoginParams {
  email: string;
  password: string;
  otp?: string;
}

/** Credentials waiting for the second factor; memory only, never stored. */
export interface PendingLogin {
  email: string;
  password: string;
  method: 'email' | 'totp';
}

export interface StackdeckAuthProvider extends AuthProvider {
  pendingLogin(): PendingLogin | null;
  /**
   * Admin only: continue as another user, keeping the admin session to switch back to.
   * `switched` runs in the same tick as the switch (leave the admin's page there): no render
   * may see the user's identity on a page only the admin may open, or react-admin's access
   * check sends it to /access-denied after the caller's own navigation.
   */
  actAs(userId: number, switched?: () => void): Promise<void>;
  switchBack(): Promise<void>;
  isActing(): boolean;
  /** The signed-in (or acted-as) user, fetched once and kept until it changes. */
  currentUser(): Promise<User | null>;
  /** Drops the kept user (after the user record changed). */
  forgetUser(): void;
}

interface ErrorLike {
  status?: number;
  message?: string;
  body?: { code?: unknown } | null;
}

/**
 * A 403 whose body says `plan_limit` (features/plans): the plan allows no more of something. The
 * form that asked shows the words and an Upgrade link, so it is no reason to leave the page.
 */
const PLAN_LIMIT = 'plan_limit';

export function createAuthProvider(options: {
  dataProvider: StackdeckDataProvider;
  sessions: SessionStore;
  resources: RegistrySource;
}): StackdeckAuthProvider {
  const { dataProvider, sessions } = options;
  const registry = registryLoader(options.resources);
  let pending: PendingLogin | null = null;
  let userCache: { id: number; promise: Promise<User> } | null = null;

  const currentUser = async (): Promise<User | null> => {
    const session = sessions.get();
    if (!session) return null;
    if (userCache?.id !== session.userId) {
      const promise = dataProvider
        .getOne<User>('users', { id: session.userId })
        .then((r) => r.data);
      userCache = { id: session.userId, promise };
      promise.catch(() => (userCache = null));
    }
    return userCache.promise;
  };

  const role = async (): Promise<Role> => {
    const session = sessions.get();
    if (!session) return { signedIn: false, isAdmin: false, isStaff: false };
    const user = await currentUser().catch(() => null);
    return { signedIn: true, isAdmin: session.isAdmin, isStaff: Boolean(user?.is_admin_staff) };
  };

  return {
    async login({ email, password, otp }: LoginParams) {
      const response = await dataProvider.action<LoginResponse>('users', 'login', {
        body: { email, password },
        query: otp ? { otp } : undefined,
      });
      if ('otp_required' in response) {
        pending = { email, password, method: response.method };
        return { redirectTo: '/validate-otp' };
      }
      pending = null;
      userCache = null;
      sessions.setAdmin(null);
      sessions.set({
        token: response.Token,
        userId: response.User.id,
        isAdmin: response.User.is_admin,
      });
      return { redirectTo: response.User.is_admin ? '/admin/dashboard' : '/dashboard' };
    },

    async logout() {
      if (sessions.get()) await dataProvider.action('users', 'logout').catch(() => undefined);
      const admin = sessions.getAdmin();
      if (admin) {
        // Revoke the admin's own session too: logging out ends the whole sign-in.
        sessions.set(admin);
        await dataProvider.action('users', 'logout').catch(() => undefined);
      }
      sessions.clear();
      userCache = null;
      pending = null;
      return '/login';
    },

    async checkAuth() {
      if (!sessions.get()) throw { redirectTo: '/register', message: false };
    },

    async checkError(error: ErrorLike) {
      if (error?.status === 401) {
        sessions.clear({ expired: true });
        userCache = null;
        throw {
          redirectTo: '/login',
          message: error.message === 'token expired' ? SESSION_EXPIRED : false,
        };
      }
      if (error?.status === 403 && error.body?.code !== PLAN_LIMIT)
        throw { redirectTo: '/403', logoutUser: false, message: false };
    },

    async getIdentity(): Promise<UserIdentity> {
      const user = await currentUser();
      if (!user) throw new Error('not signed in');
      // No avatar: `photo` names a JSON call behind the bearer token, not an image URL; the
      // header loads the picture itself through the users.photo action.
      return { ...user, fullName: user.user_name };
    },

    getPermissions: role,

    async canAccess({ resource, action }) {
      return canAccess(await role(), (await registry())[resource], action);
    },

    pendingLogin: () => pending,

    async actAs(userId, switched) {
      const admin = sessions.get();
      if (!admin?.isAdmin) throw new Error('only admins can act as another user');
      const response = await dataProvider.action<LoginResponse>('admin-users', 'actAs', {
        params: { uid: userId },
      });
      if (!('Token' in response)) throw new Error('unexpected answer');
      sessions.setAdmin(admin);
      sessions.set({ token: response.Token, userId: response.User.id, isAdmin: false });
      userCache = null;
      switched?.();
    },

    async switchBack() {
      const admin = sessions.getAdmin();
      if (!admin) return;
      await dataProvider.action('users', 'logout').catch(() => undefined);
      sessions.set(admin);
      sessions.setAdmin(null);
      userCache = null;
    },

    isActing: () => sessions.getAdmin() !== null,
    currentUser,
    forgetUser() {
      userCache = null;
    },
  };
}
