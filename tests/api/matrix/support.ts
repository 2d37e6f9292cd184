import type { TestApp, TestUser } from '../helpers';

/**
 * The authorization matrix's vocabulary, shared by tests/api/matrix.test.ts and the rows of each
 * feature (tests/api/matrix/*.rows.ts, picked up by the test).
 */
export const ROLES = ['owner', 'other', 'staff', 'admin', 'anonymous', 'acting'] as const;
export type Role = (typeof ROLES)[number];
export type Statuses = Record<Role, number>;

/** `{uid}` must be the caller; admins may name anyone. */
export const SELF: Statuses = {
  owner: 200,
  other: 404,
  staff: 404,
  admin: 200,
  anonymous: 401,
  acting: 200,
};
/** As SELF, and admin staff read it too (they reach Users and Servers). */
export const SELF_STAFF: Statuses = { ...SELF, staff: 200 };
/** Only the account holder: an admin, directly or acting, is refused (password, 2FA, keys). */
export const HOLDER: Statuses = { ...SELF, admin: 403, acting: 403 };
export const USER: Statuses = { ...SELF, other: 200, staff: 200 };
export const ADMIN: Statuses = {
  owner: 403,
  other: 403,
  staff: 403,
  admin: 200,
  anonymous: 401,
  acting: 403,
};
export const STAFF: Statuses = { ...ADMIN, staff: 200 };
/**
 * Server routes that need the agent: the fixture's server has none, so everyone who passes the
 * guard and the tenant check gets the immediate "server is offline" answer, not a queue.
 */
export const OFFLINE: Statuses = { ...SELF, owner: 409, admin: 409, acting: 409 };
export const PUBLIC = (status: number): Statuses =>
  Object.fromEntries(ROLES.map((r) => [r, status])) as Statuses;

export interface Fixture {
  t: TestApp;
  owner: TestUser & { uuid: string };
  outboxId: number;
  /** The owner's server (never connected) and rows on it. */
  serverId: number;
  itemId: number;
}

export interface Row {
  /** Method and route pattern exactly as registered, e.g. `GET /api/v1/users/:uid`. */
  route: string;
  /** Query string to append. */
  query?: (f: Fixture) => string;
  body?: (f: Fixture, role: Role) => unknown | Promise<unknown>;
  expect: Statuses;
  /** Destructive for the caller (logout, account deletion): new owner and tokens for this row. */
  fresh?: boolean;
  /** Destructive for its target (deleting a server, a user, a key): a new one for each role. */
  target?: (f: Fixture) => Promise<number>;
}
