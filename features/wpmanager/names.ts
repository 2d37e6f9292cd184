/**
 * The WordPress manager's entities (spec "WordPress manager"): a site's general settings, its
 * users and its plugins, as the panel, the agent and the page all read them.
 */
import { z } from 'zod';
import { adminEmail, adminPassword, adminUserName, siteTitle } from '../installers/api';

export const wpGeneral = z.object({
  title: z.string(),
  url: z.string(),
  admin_email: z.string(),
  /** Search engines may index the site (WordPress's blog_public). */
  public: z.boolean(),
  /** WP_DEBUG in wp-config.php. */
  debug: z.boolean(),
  /** WordPress's own `.maintenance` file is there: visitors get its 503 page. */
  maintenance: z.boolean(),
});
export type WpGeneral = z.infer<typeof wpGeneral>;

/** The settings `PATCH wp-manager/general...&type=` changes, one at a time. */
export const GENERAL_SETTINGS = [
  'title',
  'url',
  'admin_email',
  'public',
  'debug',
  'maintenance',
] as const;
export const generalSetting = z.enum(GENERAL_SETTINGS);
export type GeneralSetting = z.infer<typeof generalSetting>;

/** The site's address: scheme and host, no path (WordPress's siteurl and home). */
export const siteUrl = z
  .string()
  .trim()
  .regex(/^https?:\/\/[a-z0-9.-]+(:\d{1,5})?$/, 'http:// or https:// and a host name, no path');

/** What each setting's value must be. */
export const GENERAL_VALUES = {
  title: siteTitle,
  url: siteUrl,
  admin_email: adminEmail,
  public: z.boolean(),
  debug: z.boolean(),
  maintenance: z.boolean(),
} satisfies Record<GeneralSetting, z.ZodType>;

/** A role's key as WordPress names them (administrator, editor, a plugin's own). */
export const wpRole = z.string().regex(/^[a-z0-9_-]{1,60}$/, 'A WordPress role');
export const wpUserId = z.number().int().positive();

export const wpUser = z.object({
  id: z.number().int(),
  login: z.string(),
  email: z.string(),
  roles: z.array(z.string()),
  registered: z.string(),
});
export type WpUser = z.infer<typeof wpUser>;

export const wpUserList = z.object({
  users: z.array(wpUser),
  /** The roles of the site, for the create and change forms. */
  roles: z.array(z.object({ name: z.string(), label: z.string() })),
});

export const wpUserInput = z.object({
  login: adminUserName,
  email: adminEmail,
  role: wpRole,
  password: adminPassword,
});

export const wpUserChange = z
  .object({ role: wpRole.optional(), password: adminPassword.optional() })
  .refine((c) => c.role !== undefined || c.password !== undefined, {
    message: 'Give a role or a password',
    path: ['role'],
  });

/** A plugin by its main file, as WordPress names it (`akismet/akismet.php`, `hello.php`). */
export const pluginFile = z
  .string()
  .regex(
    /^(?!\.)[A-Za-z0-9_.-]{1,100}(\/(?!\.)[A-Za-z0-9_.-]{1,100})?\.php$/,
    "A plugin's file, such as akismet/akismet.php",
  )
  .refine((p) => !p.split('/').includes('..'), 'A plugin inside the plugins folder');

export const wpPlugin = z.object({
  plugin: z.string(),
  name: z.string(),
  version: z.string(),
  description: z.string(),
  active: z.boolean(),
});
export type WpPlugin = z.infer<typeof wpPlugin>;
export const wpPluginList = z.object({ plugins: z.array(wpPlugin) });

export const pluginAction = z.enum(['activate', 'deactivate']);

/** A plugin's zip: 16 MB at most (base64 adds a third). */
export const MAX_PLUGIN_ZIP = 16 * 1024 * 1024;
export const pluginZip = z
  .string()
  .min(4)
  .max(Math.ceil((MAX_PLUGIN_ZIP * 4) / 3) + 4)
  .regex(/^[A-Za-z0-9+/]+={0,2}$/, 'The zip file, base64');

export const pluginUpload = z.object({
  /** The file's name as uploaded, for the activity line. */
  file_name: z
    .string()
    .trim()
    .regex(/^[^/\\\n]{1,120}\.zip$/i, 'A .zip file'),
  zip: pluginZip,
});
