/**
 * MariaDB databases and their users (spec "Databases"): the panel keeps the desired databases,
 * users and grants; the agent makes the server's MariaDB match, with the SQL on the client's
 * standard input and every name from an allowlist.
 */
import { z } from 'zod';
import { managedState } from '../../resources/managedState';
import { defineResource } from '../../resources/define';
import { op } from '../../resources/agent/opDef';
import {
  COLLATION,
  DB_NAME,
  DB_USER,
  NATIVE_HASH,
  RESERVED_DATABASES,
  RESERVED_USERS,
  TEMP_USER_PREFIX,
} from './sql';

declare module '../../resources/declaration' {
  interface QueryRowKinds {
    /** A database user of the route's `{sid}` server (`?dbuser=` of the phpMyAdmin sign-in). */
    dbusers: 'server';
    /** A database of the route's `{sid}` server (`databases` a database user is granted). */
    databases: 'server';
  }
}

/** The databases a database user is granted: the route's server's, loaded by the request hook. */
const grantedDatabases = {
  of: 'databases',
  missing: 'No database #{databases} on this server',
} as const;

export const databaseName = z
  .string()
  .trim()
  .regex(DB_NAME, 'Letters, digits and _ only (at most 64)')
  .refine((n) => !RESERVED_DATABASES.includes(n.toLowerCase()), 'This name is MariaDB’s own');

export const dbUserName = z
  .string()
  .trim()
  .regex(DB_USER, 'Letters, digits and _ only (at most 32)')
  .refine((n) => !RESERVED_USERS.includes(n.toLowerCase()), 'This name is MariaDB’s own')
  .refine(
    (n) => !n.toLowerCase().startsWith(TEMP_USER_PREFIX),
    `Names starting with ${TEMP_USER_PREFIX} are the panel’s own`,
  );

export const collationName = z
  .string()
  .trim()
  .regex(COLLATION, 'A collation such as utf8mb4_unicode_ci');

/** A database user's password: long, one line (it only ever leaves the panel as a hash). */
export const dbPassword = z
  .string()
  .min(12, 'At least 12 characters')
  .max(128)
  .regex(/^[^\r\n\0]+$/, 'One line');

const managed = {
  ...managedState,
};

export const databaseSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  collation: z.string(),
  /** The panel's users granted on it. */
  users: z.array(z.object({ id: z.number().int(), name: z.string() })),
  ...managed,
});

export const databaseInput = z.object({
  name: databaseName,
  collation: collationName.default('utf8mb4_unicode_ci'),
});

export const dbUserSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  /** The databases of the same server it may use (all privileges on each). */
  databases: z.array(z.number().int()),
  ...managed,
});

export const dbUserInput = z.object({
  name: dbUserName,
  password: dbPassword,
  databases: z.array(z.number().int().positive()).max(100).default([]),
});

export const collationSchema = z.object({
  collation: z.string(),
  charset: z.string(),
  /** The charset's default collation. */
  default: z.boolean(),
});

const server = 'servers/{sid}/users/{uid}';

export const databases = defineResource({
  name: 'databases',
  label: 'Databases',
  parent: 'server',
  params: { dbId: 'id' },
  idParam: 'dbId',
  schema: databaseSchema,
  input: databaseInput,
  paths: { list: `databases/${server}`, one: `databases/{dbId}/${server}` },
  ops: {
    list: {
      guard: 'self',
      sort: ['created_at', 'name'],
      summary: "The server's databases; `?sync=true` compares them with its MariaDB",
      filters: z.object({ sync: z.enum(['true', 'false']).optional() }),
    },
    get: { guard: 'self' },
    create: { guard: 'self', summary: 'Create a database with a collation of the server' },
    update: {
      guard: 'self',
      method: 'PUT',
      summary: 'Rename the database or change its collation',
    },
    delete: { guard: 'self', summary: 'Drop the database; its users lose their grants on it' },
  },
  actions: {
    userdel: {
      method: 'PATCH',
      path: `databases/{dbId}/${server}`,
      guard: 'self',
      summary: '`?userdel=<dbUserId>` removes a user from the database (its grant goes)',
      query: z.object({ userdel: z.coerce.number().int().positive() }),
      loads: {
        userdel: {
          of: 'dbusers',
          missing: 'No database user #{userdel} on this server',
          fieldError: true,
        },
      },
      response: databaseSchema,
    },
  },
  example: { name: 'shop', collation: 'utf8mb4_unicode_ci' },
  ui: {
    listFields: ['name', 'collation', 'users', 'status'],
    formFields: ['name', 'collation'],
    widgets: {
      collation: {
        kind: 'offered',
        resource: 'database-overview',
        action: 'collations',
        serverParam: 'server',
        optionValue: 'collation',
        optionHint: 'charset',
      },
    },
    labels: { name: 'Name', collation: 'Collation', users: 'Users' },
    help: {
      name: 'Letters, digits and _',
      collation: "How text sorts and compares; from the server's MariaDB",
    },
    recordRepresentation: 'name',
  },
});

export const dbusers = defineResource({
  name: 'dbusers',
  label: 'Database Users',
  parent: 'server',
  params: { dbUserId: 'id' },
  idParam: 'dbUserId',
  schema: dbUserSchema,
  input: dbUserInput,
  paths: { list: `dbusers/${server}`, one: `dbusers/{dbUserId}/${server}` },
  ops: {
    list: {
      guard: 'self',
      sort: ['created_at', 'name'],
      summary: "The server's database users; `?sync=true` compares them with its MariaDB",
      filters: z.object({ sync: z.enum(['true', 'false']).optional() }),
    },
    // Not in the spec's list; the edit page reads the user it changes.
    get: { guard: 'self' },
    create: {
      guard: 'self',
      summary: 'Create a database user with grants on chosen databases',
      bodyLoads: { databases: grantedDatabases },
    },
    update: {
      guard: 'self',
      method: 'PUT',
      bodyLoads: { databases: grantedDatabases },
      summary: 'Change the password (when given) and the databases it may use',
      // The name may be left out: a user keeps its name (the handler refuses a new one).
      // An empty password keeps the one it has (the edit form's input starts empty).
      body: dbUserInput.extend({
        name: dbUserName.optional(),
        password: z.union([z.literal(''), dbPassword]).optional(),
      }),
    },
    delete: { guard: 'self', summary: 'Drop the user' },
  },
  example: { name: 'shop_app', password: 'a long database password', databases: [] },
  ui: {
    listFields: ['name', 'databases', 'status'],
    formFields: ['name', 'password', 'databases'],
    widgets: {
      password: { kind: 'password', length: 24 },
      databases: { kind: 'reference', resource: 'databases', optionText: 'name', multiple: true },
    },
    labels: { name: 'User name', password: 'Password', databases: 'Databases' },
    help: {
      name: 'Letters, digits and _ (at most 32)',
      password: 'Shown once: the panel keeps only what MariaDB keeps, a hash',
      databases: 'All privileges on each, nothing else',
    },
    recordRepresentation: 'name',
  },
});

/**
 * Database calls that name no server in their path (spec `databases/users/{id}` and
 * `databases/collations`): a user's databases across servers, and a server's collations, whose
 * `?server=` the request hook loads through the caller's servers.
 */
export const databaseOverview = defineResource({
  name: 'database-overview',
  label: 'Databases of all servers',
  schema: z.object({ id: z.number().int() }),
  paths: {},
  ops: {},
  actions: {
    ofUser: {
      method: 'GET',
      path: 'databases/users/{uid}',
      guard: 'self',
      summary: "The user's databases on all their servers",
      response: z.object({
        data: z.array(
          databaseSchema.extend({ server_id: z.number().int(), server_name: z.string() }),
        ),
        total: z.number().int(),
      }),
    },
    collations: {
      method: 'GET',
      path: 'databases/collations',
      guard: 'user',
      summary: "The collations a server's MariaDB has (`?server=` names one of yours)",
      query: z.object({ server: z.coerce.number().int().positive() }),
      // One of the caller's servers (their own or their team's): an admin's are their own here.
      loads: { server: { of: 'servers', missing: 'No such server' } },
      response: z.object({ data: z.array(collationSchema) }),
    },
  },
});

export const resources = { databases, dbusers, 'database-overview': databaseOverview };

const hash = z.string().regex(NATIVE_HASH);

export const ops = {
  /** Creates the database (or changes its collation). */
  'mariadb.db.set': op(
    z.object({ name: databaseName, collation: collationName }),
    z.object({ set: z.literal(true) }),
  ),
  /** Moves every table to the new name, with the grants on it; refuses views and routines. */
  'mariadb.db.rename': op(
    z.object({ from: databaseName, to: databaseName, collation: collationName }),
    z.object({ tables: z.number().int() }),
    600_000,
  ),
  /** Drops the database and every grant on it; one already gone is no error. */
  'mariadb.db.drop': op(
    z.object({ name: databaseName }),
    z.object({ dropped: z.boolean() }),
    300_000,
  ),
  /**
   * Creates the user (or sets it again): the password as its hash when given (null keeps the
   * one it has), all privileges on exactly these databases and no others of the panel's.
   */
  'mariadb.user.set': op(
    z.object({
      name: dbUserName,
      password_hash: hash.nullable(),
      databases: z.array(databaseName),
    }),
    z.object({ set: z.literal(true) }),
  ),
  'mariadb.user.drop': op(z.object({ name: dbUserName }), z.object({ dropped: z.boolean() })),
  /** The databases and users the server's MariaDB has, for the read-back. */
  'mariadb.list': op(
    z.object({}),
    z.object({
      databases: z.array(z.object({ name: z.string(), collation: z.string() })),
      users: z.array(z.object({ name: z.string(), databases: z.array(z.string()) })),
    }),
  ),
  'mariadb.collations': op(z.object({}), z.array(collationSchema)),
};
