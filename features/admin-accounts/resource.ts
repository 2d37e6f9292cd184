/** The admin area's accounts and servers (spec 7 "Admin"); the schemas are in schemas.ts. */
import { type ResourceDef, defineResource } from '../../resources/define';
import {
  adminServerFilters,
  adminServerSchema,
  adminUserRecord,
  adminUserUpdate,
  creditHistoryQuery,
  creditHistorySchema,
  userImagesQuery,
  userImagesResponse,
} from './schemas';

/**
 * `GET admin/servers`: every server of the panel with its owner, for admins and admin staff
 * (spec 6: staff keep Users and Servers). Read-only: a server is changed by its owner, or by an
 * admin acting as them.
 */
export const adminServers = defineResource({
  name: 'admin-servers',
  label: 'Servers',
  scope: 'panel',
  schema: adminServerSchema,
  paths: { list: 'admin/servers' },
  ops: {
    list: {
      guard: 'staff',
      summary: 'Every server with its owner; filter by owner, status, name or address',
      sort: ['created_at', 'name'],
      filters: adminServerFilters,
    },
  },
  ui: {
    listFields: ['name', 'owner_email', 'status', 'ip4', 'os_version', 'created_at'],
    labels: {
      owner_email: 'Owner',
      ip4: 'IP address',
      os_version: 'OS',
      created_at: 'Created',
      q: 'Search',
      owner: 'Owner',
    },
    recordRepresentation: 'name',
  },
});

/**
 * An account as the admin area sees it: its users' photos for lists, its credit history, and
 * the admin's changes to it (audited in the account's activity with the admin's name).
 */
export const adminAccounts = defineResource({
  name: 'admin-accounts',
  label: 'Accounts',
  scope: 'panel',
  schema: adminUserRecord,
  paths: {},
  ops: {},
  actions: {
    userImages: {
      method: 'GET',
      path: 'admin/user-images',
      guard: 'staff',
      summary: 'The profile photos (data URLs) of up to 25 users, for a page of a list',
      query: userImagesQuery,
      response: userImagesResponse,
    },
    updateUser: {
      method: 'PATCH',
      path: 'admin/update-user',
      guard: 'admin',
      summary:
        "Change a user's profile, sign-in address or staff role (never the password or two-factor); audited",
      body: adminUserUpdate,
      response: adminUserRecord,
    },
    creditHistory: {
      method: 'GET',
      path: 'admin/credit-history',
      guard: 'staff',
      summary:
        "The user's credit (backup storage, the panel's only credit so far) and its ledger, newest first",
      query: creditHistoryQuery,
      response: creditHistorySchema,
    },
  },
});

export const resources = {
  'admin-servers': adminServers,
  'admin-accounts': adminAccounts,
} as const satisfies Record<string, ResourceDef>;

/** No agent ops: the admin area lives in the panel. */
export const ops = {};
