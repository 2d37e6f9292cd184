/**
 * The web apps' API schemas: an app's record, its create and PATCH bodies, the PHP runtimes a
 * server has or is offered, and the A-record check. The resource declarations that use them,
 * and the agent's ops, are in resource.ts.
 */
import { z } from 'zod';
import { managedState } from '../../resources/managedState';
import { systemUserName } from '../../resources/agent/validators';
import {
  APP_NAME,
  domainList,
  phpSettings,
  phpSettingsChange,
  phpVersion,
  stackType,
  webRoot,
  webappType,
} from './names';

export const appName = z
  .string()
  .trim()
  .regex(APP_NAME, 'Lower-case letters, digits and -, starting with a letter (at most 40)');

export const webappSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  webapp_type: z.string(),
  /** `nginx` or `apache/nginx` (spec stack_type). */
  stack_type: stackType,
  /** How the stack is shown: "Native NGINX", "NGINX plus Apache2" (spec web_stack). */
  web_stack: z.string(),
  /** `app`, or `child` for an app on a subdomain of its parent (spec type). */
  type: z.enum(['app', 'child']),
  parent_id: z.number().int().nullable(),
  /** Null for a static site. */
  php_version: z.string().nullable(),
  /** The first is the primary name. */
  domains: z.array(z.string()),
  web_root: z.string(),
  php_settings: phpSettings,
  sys_user: z.object({ id: z.number().int(), user_name: z.string(), quota_hard: z.number() }),
  /** Where the app lives on its server: `/home/<user>/apps/<name>`. */
  path: z.string(),
  ...managedState,
});
export type Webapp = z.infer<typeof webappSchema>;

export const webappInput = z.object({
  name: appName,
  webapp_type: webappType.default('custom'),
  stack_type: stackType.default('nginx'),
  php_version: phpVersion.default('8.2'),
  domains: domainList,
  web_root: webRoot.default('public'),
  /** The system user the app runs as (an active one of this server; root never). */
  sys_user: systemUserName,
  /** A child app (subdomain) of this app: it runs as the parent's user. */
  parent_id: z.coerce.number().int().positive().nullable().default(null),
  php_settings: phpSettings.default(phpSettings.parse({})),
});

/** What PATCH may change: the name, the user and the parent stay. */
export const webappChange = z.object({
  stack_type: stackType.optional(),
  php_version: phpVersion.optional(),
  domains: domainList.optional(),
  web_root: webRoot.optional(),
  php_settings: phpSettingsChange.optional(),
});

export const phpRuntime = z.object({
  version: z.string(),
  /** Its FPM service runs (apps can use it). */
  running: z.boolean(),
  /** Where its packages come from: Debian's own, or the Sury repository. */
  source: z.enum(['debian', 'sury', 'other']),
});

/** A version apt can install or has installed (`apt-cache policy`). */
export const phpAvailable = z.object({
  version: z.string(),
  installed: z.boolean(),
  /** The package version apt would install; null: no source of the server has it. */
  candidate: z.string().nullable(),
  source: z.enum(['debian', 'sury', 'other']).nullable(),
});

/** Where a version comes from, in words (the version picker's hint). */
export const PHP_SOURCE_WORDS: Record<z.infer<typeof phpRuntime>['source'], string> = {
  debian: "Debian's own packages",
  sury: 'the Sury repository',
  other: 'installed outside the package manager',
};

/** A version as the panel offers it: the server's answer and its source in words. */
export const phpOffered = phpRuntime.extend({ from: z.string() });

/** Installing a version: one the panel knows (Sury's range, 5.6 to 8.4). */
export const phpInstallInput = z.object({ version: phpVersion });

export const aRecordCheck = z.object({
  domain: z.string(),
  /** The addresses the domain resolves to, as the panel sees it. */
  addresses: z.array(z.string()),
  /** The server's public address the domain should point at. */
  server_ip: z.string().nullable(),
  points: z.boolean(),
});
