/**
 * App databases (spec "App databases"): the databases and database users of one web app —
 * the server's own MariaDB databases and users (features/databases), made from the app's
 * pages and marked as the app's, so its pages list only them.
 */
import { defineResource } from '../../resources/define';
import {
  databaseInput,
  databases,
  databaseSchema,
  dbUserInput,
  dbusers,
  dbUserSchema,
} from '../databases/api';

const app = 'webstackdb/{appId}/servers/{sid}/users/{uid}';
const appUsers = 'webstackdbuser/{appId}/servers/{sid}/users/{uid}';

export const webstackdb = defineResource({
  name: 'webstackdb',
  label: 'App Databases',
  parent: 'app',
  schema: databaseSchema,
  input: databaseInput,
  paths: { list: app },
  ops: {
    list: {
      guard: 'self',
      sort: ['created_at', 'name'],
      summary: "The app's databases",
    },
    create: { guard: 'self', summary: 'Create a database for the app (the answer carries its id)' },
  },
  example: databases.example,
  ui: { ...databases.ui },
});

export const webstackdbuser = defineResource({
  name: 'webstackdbuser',
  label: 'App Database Users',
  parent: 'app',
  schema: dbUserSchema,
  input: dbUserInput,
  paths: { list: appUsers },
  ops: {
    list: {
      guard: 'self',
      sort: ['created_at', 'name'],
      summary: "The app's database users",
    },
    create: {
      guard: 'self',
      summary: 'Create a database user for the app, with grants (the answer carries its id)',
    },
  },
  example: dbusers.example,
  ui: { ...dbusers.ui },
});

export const resources = { webstackdb, webstackdbuser };

/** No op of its own: the databases feature's ops make them. */
export const ops = {};
