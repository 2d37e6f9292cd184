/**
 * Web apps (spec "Web apps", "Subdomains"): a site of a server, run as one of its system users
 * with its own PHP-FPM pool, served by nginx alone or by nginx in front of Apache2. The panel
 * keeps the desired app; the agent renders its files and applies them as one configuration
 * transaction (`php-fpm -t`, `apache2ctl configtest`, `nginx -t`, reload, roll back).
 */
import { z } from 'zod';
import { defineResource } from '../../resources/define';
import { op } from '../../resources/agent/opDef';
import { cacheOps, nginxcache } from './cacheResource';
import { applimits, limitsOps } from './limitsResource';
import { systemUserName } from '../../resources/agent/validators';
import {
  cacheSettings,
  domainList,
  phpSettings,
  phpVersion,
  stackType,
  anyWebappType,
  webRoot,
} from './names';
import {
  aRecordCheck,
  appName,
  phpAvailable,
  phpInstallInput,
  phpOffered,
  phpRuntime,
  webappChange,
  webappInput,
  webappSchema,
} from './schemas';

const server = 'servers/{sid}/users/{uid}';

export const webstacks = defineResource({
  name: 'webstacks',
  label: 'Web apps',
  parent: 'server',
  params: { appId: 'id' },
  idParam: 'appId',
  schema: webappSchema,
  input: webappInput,
  paths: { list: `webstacks/${server}`, one: `webstacks/{appId}/${server}` },
  ops: {
    list: {
      guard: 'self',
      sort: ['created_at', 'name'],
      summary:
        "The server's web apps; `?id=` one, `?parent_id=` an app's child apps, `?sync=true` compares them with the server",
      filters: z.object({
        id: z.coerce.number().int().positive().optional(),
        parent_id: z.coerce.number().int().positive().optional(),
        sync: z.enum(['true', 'false']).optional(),
      }),
    },
    get: { guard: 'self' },
    create: {
      guard: 'self',
      summary: 'Create a web app (or, with `parent_id`, a child app on a subdomain)',
    },
    update: {
      guard: 'self',
      method: 'PATCH',
      summary: 'Change the stack, PHP version, domains, document root or PHP settings',
      body: webappChange,
    },
    delete: {
      guard: 'self',
      summary:
        'Remove the app: its vhost, pool and files (`?children=true` its child apps too, `?databases=true` its databases and database users)',
      query: z.object({
        children: z.enum(['true', 'false']).optional(),
        databases: z.enum(['true', 'false']).optional(),
      }),
    },
  },
  actions: {
    rebuild: {
      method: 'PATCH',
      path: `webstacks/rebuild/{appId}/${server}`,
      guard: 'self',
      summary: "Write the app's files again from the panel (its own includes are kept)",
      response: webappSchema,
    },
    php: {
      method: 'GET',
      path: `webstacks/php/${server}`,
      guard: 'self',
      summary: 'The PHP versions the server has, and where they come from',
      response: z.object({ data: z.array(phpOffered) }),
    },
    phpAvailable: {
      method: 'GET',
      path: `webstacks/php/available/${server}`,
      guard: 'self',
      summary:
        "The PHP versions the server's package sources offer (Debian's, or the Sury repository once set up), installed or not",
      response: z.object({
        data: z.array(phpAvailable.extend({ from: z.string().nullable() })),
      }),
    },
    phpInstall: {
      method: 'POST',
      path: `webstacks/php/${server}`,
      guard: 'self',
      summary:
        'Install a PHP version (its FPM and CLI) from the package sources that offer it, and start its FPM',
      body: phpInstallInput,
      response: phpOffered,
    },
    aRecord: {
      method: 'GET',
      path: `a-record-validation/${server}`,
      guard: 'self',
      summary: "Whether a domain's A record points at the server",
      query: z.object({ domain: z.string().max(253) }),
      response: aRecordCheck,
    },
  },
  example: {
    name: 'shop',
    webapp_type: 'custom',
    stack_type: 'nginx',
    php_version: '8.2',
    domains: ['shop.example.com'],
    web_root: 'public',
    sys_user: 'stackdeck',
  },
  ui: {
    listFields: ['name', 'domains', 'stack_type', 'php_version', 'sys_user', 'status'],
    formFields: [
      'name',
      'domains',
      'sys_user',
      'webapp_type',
      'stack_type',
      'php_version',
      'web_root',
    ],
    widgets: {
      domains: { kind: 'lines' },
      sys_user: {
        kind: 'reference',
        resource: 'sysusers',
        optionText: 'user_name',
        optionValue: 'user_name',
      },
      php_version: {
        kind: 'offered',
        resource: 'webstacks',
        action: 'php',
        optionValue: 'version',
        optionHint: 'from',
        only: true,
      },
    },
    labels: {
      name: 'App name',
      domains: 'Domains',
      sys_user: 'System user',
      webapp_type: 'Type',
      stack_type: 'Stack',
      php_version: 'PHP',
      web_root: 'Document root',
    },
    help: {
      name: 'Lower-case letters, digits and -; the app lives in /home/<user>/apps/<name>',
      domains: 'One per line, the primary first; international names are stored as punycode',
      sys_user: 'The app runs as this user and only it can read its files',
      php_version: 'A version installed on this server',
      web_root: 'The folder inside the app that is served',
    },
    recordRepresentation: 'name',
  },
});

/** A user's apps on all their servers (spec `webstacks/users/{id}`). */
export const webappOverview = defineResource({
  name: 'webapp-overview',
  label: 'Web apps of all servers',
  schema: z.object({ id: z.number().int() }),
  paths: {},
  ops: {},
  actions: {
    ofUser: {
      method: 'GET',
      path: 'webstacks/users/{uid}',
      guard: 'self',
      summary: "The user's web apps on all their servers",
      response: z.object({
        data: z.array(
          webappSchema.extend({ server_id: z.number().int(), server_name: z.string() }),
        ),
        total: z.number().int(),
      }),
    },
  },
});

export const resources = {
  webstacks,
  'webapp-overview': webappOverview,
  nginxcache,
  applimits,
};

/** An app as the agent gets it: every value already from an allowlist. */
export const appSpec = z.object({
  name: appName,
  user: systemUserName,
  stack_type: stackType,
  webapp_type: anyWebappType,
  /** Null: a static site, no pool. */
  php_version: phpVersion.nullable(),
  domains: domainList,
  web_root: webRoot,
  php_settings: phpSettings,
  /** The parent's name, for a child app (it lives beside its parent, under the same user). */
  parent: appName.nullable(),
  /** nginx's FastCGI cache for the app (native nginx PHP apps), or none. */
  cache: cacheSettings.nullable().default(null),
  /**
   * HTTPS for the app (features/ssl): its certificate is in place on the server, so nginx also
   * serves port 443; `force_https` sends plain HTTP there (the ACME challenge excepted). Null:
   * plain HTTP only.
   */
  tls: z.object({ force_https: z.boolean() }).nullable().default(null),
  /**
   * A Node.js app (features/nodejs): nginx proxies every request to this loopback port, where
   * supervisor runs the app; no PHP pool. Null for every other app.
   */
  proxy_port: z.number().int().min(1024).max(65535).nullable().default(null),
});
export type AppSpec = z.output<typeof appSpec>;

/** What the server's files say of an app, as found (for the read-back). */
const foundApp = z.object({
  name: z.string(),
  user: z.string().optional(),
  stack_type: z.string().optional(),
  php_version: z.string().nullable().optional(),
  domains: z.array(z.string()).optional(),
  web_root: z.string().optional(),
});

export const ops = {
  ...cacheOps,
  ...limitsOps,
  /**
   * Makes the server serve the app as specified: directories, PHP-FPM pool, nginx (and Apache)
   * vhosts, written and checked as one transaction; a pool of another version is moved.
   */
  'webapp.apply': op(appSpec, z.object({ path: z.string() }), 120_000),
  /** Takes the app off the server: vhosts, pool, and its directory when `files` is true. */
  'webapp.remove': op(
    z.object({ name: appName, user: systemUserName, files: z.boolean() }),
    z.object({ removed: z.boolean() }),
    120_000,
  ),
  /** The panel's apps as their files on the server say. */
  'webapp.list': op(z.object({}), z.array(foundApp)),
  /** The PHP versions installed, and whether their FPM runs. */
  'php.runtimes': op(z.object({}), z.array(phpRuntime)),
  /** apt's view of the versions the panel knows: installed, installable and from where. */
  'php.available': op(z.object({}), z.array(phpAvailable), 60_000),
  /** apt-get installs the version's FPM and CLI; its FPM is started. */
  'php.install': op(z.object({ version: phpVersion }), phpRuntime, 900_000),
};
declare module '../../resources/declaration' {
  interface QueryRowKinds {
    /** A web app of the route's `{sid}` server (`webapp_id` of a certificate's body). */
    webstacks: 'server';
  }
}
