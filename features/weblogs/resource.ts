/**
 * Web-server logs of an app (spec "Logs": `nginxlog` and `apachelog`): its access and error
 * logs a page of 100 lines at a time, from the newest (`scroll_count` 1) back, across the files
 * logrotate keeps (`.1`, then `.2.gz`...). Read from the end, so a page costs the same in a 1 MB
 * and a 1 GB log.
 */
import { z } from 'zod';
import { defineResource } from '../../resources/define';
import { op } from '../../resources/agent/opDef';
import { appName } from '../webapps/api';

/** Lines a page holds (spec section 9). */
export const LOG_PAGE_SIZE = 100;
export const logType = z.enum(['access', 'error']);

export const logPage = z.object({
  /** Oldest first: the page reads like the file. */
  lines: z.array(z.string()),
  scroll_count: z.number().int(),
  /** Lines in the log and its rotated files (estimated for big and compressed ones: `estimated`). */
  total_size: z.number().int(),
  total_pages: z.number().int(),
  /** Bytes of the current file. */
  file_size: z.number().int(),
  /** Older lines are there (a further `scroll_count`). */
  has_more: z.boolean(),
  /** total_size is an estimate from the lines read (a big file is never counted through). */
  estimated: z.boolean(),
});

const query = z.object({
  wsid: z.coerce.number().int().positive(),
  scroll_count: z.coerce.number().int().min(1).max(100_000).default(1),
  type: logType.default('access'),
});

const server = 'servers/{sid}/users/{uid}';

export const weblogs = defineResource({
  name: 'weblogs',
  label: 'Web server logs',
  parent: 'app',
  schema: logPage.extend({ id: z.number().int() }),
  paths: {},
  ops: {},
  actions: {
    nginx: {
      method: 'GET',
      path: `nginxlog/${server}`,
      guard: 'self',
      summary: "A page of the app's nginx access or error log, newest first by page",
      query,
      response: logPage,
    },
    apache: {
      method: 'GET',
      path: `apachelog/${server}`,
      guard: 'self',
      summary: "A page of the app's Apache access or error log (NGINX plus Apache2 apps)",
      query,
      response: logPage,
    },
  },
});

export const resources = { weblogs };

export const ops = {
  'weblog.page': op(
    z.object({
      app: appName,
      server: z.enum(['nginx', 'apache']),
      type: logType,
      page: z.number().int().min(1).max(100_000),
    }),
    logPage,
  ),
};
