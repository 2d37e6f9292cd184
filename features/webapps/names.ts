/**
 * The values of a web app that reach a server's configuration files (nginx, Apache, PHP-FPM):
 * each from an allowlist, so nothing a user types can end a directive or open a block. Pure:
 * the declaration, the forms and the agent share it.
 */
import { z } from 'zod';

/** The app's name: its directory, its pool, its vhost file (`stackdeck-<name>.conf`). */
export const APP_NAME = /^[a-z][a-z0-9-]{0,39}$/;

/** One DNS label after IDN conversion: letters, digits, inner hyphens; `xn--` for IDN. */
const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/**
 * A domain as nginx and Apache get it: lower case, IDN as punycode (`bücher.de` becomes
 * `xn--bcher-kva.de`), labels of 1 to 63 letters, digits and hyphens, two labels at least,
 * 253 characters at most. No wildcard, no port, no path: nothing of nginx syntax survives.
 * Null when the text is no such name.
 */
export function toAsciiDomain(text: string): string | null {
  const trimmed = text.trim().toLowerCase().replace(/\.$/, '');
  // Anything besides letters (any script), digits, dots and hyphens is refused before the URL
  // parser, which would otherwise drop or encode it (`a b.com`, `a;b.com`, `a/b.com`).
  if (!trimmed || !/^[\p{L}\p{N}\p{M}.-]+$/u.test(trimmed)) return null;
  let ascii: string;
  try {
    ascii = new URL(`http://${trimmed}`).hostname;
  } catch {
    return null;
  }
  if (ascii.length > 253) return null;
  const labels = ascii.split('.');
  if (labels.length < 2 || !labels.every((l) => LABEL.test(l))) return null;
  // A top-level label is never all digits (that is an IPv4 address, not a name).
  if (/^\d+$/.test(labels[labels.length - 1]!)) return null;
  return ascii;
}

export const domainName = z
  .string()
  .max(253)
  .transform((text, ctx) => {
    const ascii = toAsciiDomain(text);
    if (ascii === null) {
      ctx.addIssue({
        code: 'custom',
        message: 'A domain such as example.com: letters, digits and hyphens in dotted labels',
      });
      return z.NEVER;
    }
    return ascii;
  });

/** The app's domains: the first is its primary name, the rest answer too. */
export const domainList = z
  .array(domainName)
  .min(1, 'Give the app a domain')
  .max(50, 'At most 50 domains')
  .superRefine((list, ctx) => {
    const seen = new Set<string>();
    list.forEach((d, i) => {
      if (seen.has(d)) ctx.addIssue({ code: 'custom', path: [i], message: `${d} is given twice` });
      seen.add(d);
    });
  });

/**
 * The document root inside the app's directory: `public`, `web/public`, or `.` for the
 * directory itself. Plain names only, no `..`, no leading slash.
 */
export const webRoot = z
  .string()
  .trim()
  .max(100)
  .regex(
    /^(\.|[A-Za-z0-9_-][A-Za-z0-9._-]*(\/[A-Za-z0-9_-][A-Za-z0-9._-]*)*)$/,
    'A folder inside the app, such as public (letters, digits, . _ - and /)',
  )
  .refine((p) => !p.split('/').includes('..'), 'No ..');

/** A PHP version as Debian names its packages: `8.2`. */
export const phpVersion = z.string().regex(/^[5-9]\.\d$/, 'A PHP version such as 8.2');

/** The two ways an app is served (spec "stack_type"). */
export const STACKS = ['nginx', 'apache/nginx'] as const;
export const stackType = z.enum(STACKS);
export const STACK_LABELS: Record<(typeof STACKS)[number], string> = {
  nginx: 'Native NGINX',
  'apache/nginx': 'NGINX plus Apache2',
};

/** What each stack is, in a line under the form's choice (the chosen one only). */
export const STACK_HELP: Record<(typeof STACKS)[number], string> = {
  nginx:
    "NGINX serves the files and hands PHP to the app's own PHP-FPM pool: the fastest; .htaccess files are ignored (the web cache works here)",
  'apache/nginx':
    "NGINX in front, Apache2 behind it running PHP through the app's PHP-FPM pool: honours .htaccess files (rewrites, redirects, access rules)",
};

/** What a user may create as a plain app. */
export const PLAIN_WEBAPP_TYPES = ['custom', 'static'] as const;
/** The one-click apps: only their installers make apps of these types. */
export const INSTALLED_WEBAPP_TYPES = [
  'wordpress',
  'joomla',
  'nextcloud',
  'moodle',
  'phpmyadmin',
  'roundcube',
  'nodejs',
] as const;
/** What the app is. */
export const WEBAPP_TYPES = [...PLAIN_WEBAPP_TYPES, ...INSTALLED_WEBAPP_TYPES] as const;
export type WebappType = (typeof WEBAPP_TYPES)[number];
/** What a plain create may ask for. */
export const webappType = z.enum(PLAIN_WEBAPP_TYPES);
/** Any app's type, as the agent gets it. */
export const anyWebappType = z.enum(WEBAPP_TYPES);
export const WEBAPP_TYPE_LABELS: Record<WebappType, string> = {
  custom: 'Custom PHP app',
  static: 'Static site',
  wordpress: 'WordPress',
  joomla: 'Joomla',
  nextcloud: 'Nextcloud',
  moodle: 'Moodle',
  phpmyadmin: 'phpMyAdmin',
  roundcube: 'Roundcube',
  nodejs: 'Node.js',
};

/** PHP functions a pool may disable: names only. */
const FUNCTION_LIST = /^([a-z_][a-z0-9_]*)(,[a-z_][a-z0-9_]*)*$|^$/;

/** A size as php.ini writes it: `256M`, `2G`. */
const SIZE = /^[1-9][0-9]{0,5}[KMG]$/;

/**
 * The app's PHP settings (spec /app-settings), written into its pool as php_admin_value, so
 * the app's own code cannot raise them.
 */
/** The PHP settings' own rules, without defaults (a change names only what it changes). */
const phpSettingFields = {
  memory_limit: z.string().regex(SIZE, 'A size such as 256M'),
  upload_max_filesize: z.string().regex(SIZE, 'A size such as 64M'),
  post_max_size: z.string().regex(SIZE, 'A size such as 64M'),
  max_execution_time: z.coerce.number().int().min(1).max(3600),
  max_input_time: z.coerce.number().int().min(1).max(3600),
  max_input_vars: z.coerce.number().int().min(100).max(100_000),
  /** Child processes the pool may start (pm = ondemand). */
  max_children: z.coerce.number().int().min(1).max(200),
  timezone: z
    .string()
    .regex(/^[A-Za-z]+(\/[A-Za-z0-9_+-]+){0,2}$|^UTC$/, 'A time zone such as Europe/Berlin'),
  disable_functions: z.string().trim().regex(FUNCTION_LIST, 'Function names separated by commas'),
};

export const phpSettings = z.object({
  memory_limit: phpSettingFields.memory_limit.default('256M'),
  upload_max_filesize: phpSettingFields.upload_max_filesize.default('64M'),
  post_max_size: phpSettingFields.post_max_size.default('64M'),
  max_execution_time: phpSettingFields.max_execution_time.default(60),
  max_input_time: phpSettingFields.max_input_time.default(60),
  max_input_vars: phpSettingFields.max_input_vars.default(3000),
  max_children: phpSettingFields.max_children.default(8),
  timezone: phpSettingFields.timezone.default('UTC'),
  disable_functions: phpSettingFields.disable_functions.default(
    'exec,passthru,shell_exec,system,proc_open,popen,pcntl_exec',
  ),
});
/** A change of some PHP settings: the others keep their values (no defaults filled in). */
export const phpSettingsChange = z.object(phpSettingFields).partial();
export type PhpSettings = z.output<typeof phpSettings>;
export const DEFAULT_PHP_SETTINGS: PhpSettings = phpSettings.parse({});

/**
 * Where the web servers write an app's logs. Not under the user's home: nginx and Apache open
 * them as root, and a directory the user owns would let them swap a log for a link to any file
 * root can write. The directory is root's, readable by the app's group.
 */
export const APP_LOG_DIR = '/var/log/stackdeck/apps';
export const appLogPath = (
  app: string,
  server: 'nginx' | 'apache',
  type: 'access' | 'error',
): string => `${APP_LOG_DIR}/${app}/${server}.${type}.log`;

/** A path prefix that skips the cache (`/wp-admin`): plain URL characters only. */
const CACHE_PATH = /^\/[A-Za-z0-9._~/-]{0,100}$/;
/** A cookie name (or its start) whose presence skips the cache (`wordpress_logged_in`). */
const CACHE_COOKIE = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * The app's nginx FastCGI cache (spec "Web cache"): how long a page is kept, and the paths
 * and cookies that always go to PHP. POSTs and query strings always do.
 */
const cacheFields = {
  ttl_seconds: z.coerce.number().int().min(1).max(86_400),
  bypass_paths: z.array(z.string().regex(CACHE_PATH, 'A path such as /wp-admin')).max(50),
  bypass_cookies: z
    .array(z.string().regex(CACHE_COOKIE, 'A cookie name such as wordpress_logged_in'))
    .max(50),
};
export const cacheSettings = z.object({
  ttl_seconds: cacheFields.ttl_seconds.default(3600),
  bypass_paths: cacheFields.bypass_paths.default(['/wp-admin', '/wp-login.php']),
  bypass_cookies: cacheFields.bypass_cookies.default([
    'wordpress_logged_in',
    'comment_author',
    'woocommerce_items_in_cart',
  ]),
});
/** A change of some cache settings: the others keep their values (no defaults filled in). */
export const cacheSettingsChange = z.object(cacheFields).partial();
export type CacheSettings = z.output<typeof cacheSettings>;

/** A value of the lists as it goes into an nginx regex: dots match only dots. */
export const regexLiteral = (value: string) => value.replace(/\./g, '\\.');
