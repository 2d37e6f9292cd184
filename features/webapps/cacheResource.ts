/**
 * An app's web cache (spec "Web cache"): nginx's FastCGI cache in front of its PHP, kept with
 * the app (its vhost carries it) and named by `?wsid=` or `nginxcache/webstacks/{appId}`.
 */
import { z } from 'zod';
import { defineResource } from '../../resources/define';
import { op } from '../../resources/agent/opDef';
import { cacheSettings, cacheSettingsChange } from './names';

export const cacheState = cacheSettings.extend({
  enabled: z.boolean(),
  /** The app's state on its server (the cache is part of its vhost). */
  status: z.string(),
  error: z.string().nullable(),
});

const wsid = z.object({ wsid: z.coerce.number().int().positive() });
const server = 'servers/{sid}/users/{uid}';

export const nginxcache = defineResource({
  name: 'nginxcache',
  label: 'Web cache',
  parent: 'app',
  schema: cacheState.extend({ id: z.number().int() }),
  paths: {},
  ops: {},
  actions: {
    read: {
      method: 'GET',
      path: `nginxcache/${server}`,
      guard: 'self',
      summary: "The app's cache settings (`?wsid=`)",
      query: wsid,
      response: cacheState,
    },
    enable: {
      method: 'POST',
      path: `nginxcache/${server}`,
      guard: 'self',
      summary: "Turn the app's cache on, with its time to live and what bypasses it",
      query: wsid,
      body: cacheSettingsChange,
      response: cacheState,
    },
    edit: {
      method: 'PATCH',
      path: `nginxcache/${server}`,
      guard: 'self',
      summary: 'Change the time to live or what bypasses the cache',
      query: wsid,
      body: cacheSettingsChange,
      response: cacheState,
    },
    disable: {
      method: 'DELETE',
      path: `nginxcache/${server}`,
      guard: 'self',
      summary: "Turn the app's cache off (its pages are dropped)",
      query: wsid,
      response: cacheState,
    },
    ofApp: {
      method: 'GET',
      path: `nginxcache/webstacks/{appId}/${server}`,
      guard: 'self',
      summary: "The app's cache settings",
      response: cacheState,
    },
    purge: {
      method: 'POST',
      path: `nginxcache/purge/${server}`,
      guard: 'self',
      summary: 'Drop every cached page of the app (not in the spec: its pages ask for it)',
      query: wsid,
      response: z.object({ purged: z.number().int() }),
    },
  },
});

export const cacheOps = {
  /** Empties the app's cache folder: every page is asked of PHP again. */
  'webapp.cachePurge': op(
    z.object({ name: z.string().regex(/^[a-z][a-z0-9-]{0,39}$/) }),
    z.object({ purged: z.number().int() }),
  ),
};
