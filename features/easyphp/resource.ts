/**
 * EasyPHP (spec "PHP, transfer, updates", admin "PHP extensions"): the admins keep a catalogue
 * of PHP extensions users may switch; on a server, each catalogue extension of a PHP version is
 * shown with its state there (its ini file in mods-available, its link in the FPM's conf.d), and
 * switched for PHP-FPM with Debian's `phpenmod`/`phpdismod`, checked with `php-fpmX.Y -t`.
 */
import { z } from 'zod';
import { defineResource, id } from '../../resources/define';
import { op } from '../../resources/agent/opDef';
import { phpRuntime, phpVersion } from '../webapps/api';

/** The ini name `phpenmod` takes (`/etc/php/X.Y/mods-available/<name>.ini`). */
export const EXTENSION_NAME = /^[a-z][a-z0-9_]{1,31}$/;
export const extensionName = z
  .string()
  .trim()
  .regex(EXTENSION_NAME, 'The ini name phpenmod uses: lower-case letters, digits and _ (2-32)');

/**
 * The Debian package that brings the extension, `{version}` standing for the PHP version
 * (`php{version}-mysql` is php8.2-mysql for PHP 8.2).
 */
export const PACKAGE_NAME = /^[a-z0-9][a-z0-9.+-]*(\{version\}[a-z0-9.+-]*)?$/;
export const packageName = z
  .string()
  .trim()
  .max(64)
  .refine(
    (v) => v === '' || PACKAGE_NAME.test(v),
    'A Debian package name; {version} stands for the PHP version',
  );

/** The package for one PHP version. */
export const packageFor = (pkg: string, version: string) => pkg.replace('{version}', version);

export const phpExtensionSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  label: z.string(),
  description: z.string(),
  package: z.string().nullable(),
  /** The PHP versions it is offered for; empty: every version. */
  php_versions: z.array(z.string()),
  /** Offered to users (the catalogue's availability status). */
  is_available: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type PhpExtension = z.infer<typeof phpExtensionSchema>;

export const phpExtensionInput = z.object({
  name: extensionName,
  label: z.string().trim().min(1, 'Give the name users read').max(64),
  description: z.string().trim().max(300).default(''),
  package: packageName.nullable().optional(),
  php_versions: z.array(phpVersion).max(20).default([]),
  is_available: z.boolean().default(true),
});

/** The catalogue (admin area): every admin call, no admin staff. */
export const phpExtensions = defineResource({
  name: 'php-extensions',
  scope: 'panel',
  label: 'PHP extensions',
  schema: phpExtensionSchema,
  input: phpExtensionInput,
  paths: { list: 'admin/easyphp', one: 'admin/easyphp/{id}' },
  ops: {
    list: { guard: 'admin', sort: ['name', 'label', 'created_at'], summary: 'The catalogue' },
    get: { guard: 'admin' },
    create: { guard: 'admin', summary: 'Add an extension to the catalogue' },
    update: { guard: 'admin', method: 'PUT', summary: 'Change an extension of the catalogue' },
    delete: { guard: 'admin', summary: 'Take an extension out of the catalogue' },
  },
  actions: {
    availability: {
      method: 'PATCH',
      path: 'admin/easyphp/{id}',
      guard: 'admin',
      summary: 'Offer an extension to users, or stop offering it (its availability status)',
      body: z.object({ is_available: z.boolean() }),
      response: phpExtensionSchema,
    },
  },
  example: {
    name: 'redis',
    label: 'Redis',
    description: 'Redis client',
    package: 'php{version}-redis',
    php_versions: [],
    is_available: true,
  },
  ui: {
    listFields: ['name', 'label', 'package', 'php_versions', 'is_available'],
    formFields: ['name', 'label', 'description', 'package', 'php_versions', 'is_available'],
    widgets: { php_versions: { kind: 'lines' } },
    labels: {
      name: 'Extension',
      label: 'Name shown',
      package: 'Debian package',
      php_versions: 'PHP versions',
      is_available: 'Offered to users',
    },
    help: {
      name: 'The ini name phpenmod uses (calendar, pdo_mysql)',
      package: 'The package that brings it, {version} for the PHP version: php{version}-mysql',
      php_versions: 'One per line (8.2); none: every version',
    },
    recordRepresentation: 'label',
  },
});

/** A catalogue extension on a server's PHP version. */
export const extensionState = z.object({
  /** The catalogue's id: what `?enable=` and `?disable=` name. */
  id: z.number().int(),
  name: z.string(),
  label: z.string(),
  description: z.string(),
  /** The package for this version, when the catalogue names one. */
  package: z.string().nullable(),
  /** Its ini file is in the version's mods-available (the package is installed). */
  available: z.boolean(),
  /** PHP-FPM loads it (its link is in the version's fpm/conf.d). */
  enabled: z.boolean(),
});
export type ExtensionState = z.infer<typeof extensionState>;

const server = 'servers/{sid}/users/{uid}';

/** The server's side: its PHP versions, and the catalogue's extensions on one of them. */
export const easyphp = defineResource({
  name: 'easyphp',
  label: 'EasyPHP',
  parent: 'server',
  params: { version: 'version' },
  idParam: 'version',
  schema: extensionState,
  paths: {},
  ops: {},
  actions: {
    versions: {
      method: 'GET',
      path: `easyphp/${server}`,
      guard: 'self',
      summary: "The server's PHP versions (read from it; the versions the other calls accept)",
      response: z.object({ data: z.array(phpRuntime) }),
    },
    extensions: {
      method: 'GET',
      path: `easyphp/{version}/${server}`,
      guard: 'self',
      summary: "The catalogue's extensions on one PHP version of the server, with their state",
      response: z.object({ version: z.string(), data: z.array(extensionState) }),
    },
    toggle: {
      method: 'PATCH',
      path: `easyphp/{version}/${server}`,
      guard: 'self',
      summary: 'Enable (`?enable={extensionId}`) or disable (`?disable=`) an extension for PHP-FPM',
      query: z.object({ enable: id.optional(), disable: id.optional() }),
      response: extensionState,
    },
  },
});

export const resources = { 'php-extensions': phpExtensions, easyphp };

export const extensionsOnServer = z.object({
  /** Extensions with an ini file in mods-available. */
  available: z.array(z.string()),
  /** Extensions PHP-FPM loads (a link in fpm/conf.d). */
  enabled: z.array(z.string()),
});

export const ops = {
  /** The version's extensions as its files say. */
  'easyphp.state': op(z.object({ version: phpVersion }), extensionsOnServer),
  /**
   * Enables or disables an extension for PHP-FPM, checks the configuration (`php-fpmX.Y -t`,
   * put back on failure) and reloads the FPM.
   */
  'easyphp.set': op(
    z.object({ version: phpVersion, name: extensionName, enabled: z.boolean() }),
    z.object({ enabled: z.boolean(), changed: z.boolean() }),
    120_000,
  ),
};
