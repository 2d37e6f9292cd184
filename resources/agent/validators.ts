/**
 * Allow-lists for every value that reaches a server. The API validates with them, and the
 * agent validates again before anything runs (argv only, never a shell).
 */
import { z } from 'zod';

/** Accounts the panel never creates, changes or lists (root is handled apart). */
export const RESERVED_USER_NAMES = [
  'root',
  'daemon',
  'bin',
  'sys',
  'sync',
  'games',
  'man',
  'lp',
  'mail',
  'news',
  'uucp',
  'proxy',
  'www-data',
  'backup',
  'list',
  'irc',
  'gnats',
  'nobody',
  'systemd-network',
  'systemd-resolve',
  'messagebus',
  'sshd',
  'mysql',
  'postfix',
  'dovecot',
  'dovenull',
  'ftp',
  'admin',
  'sudo',
  'wheel',
  'staff',
  'adm',
  'shadow',
  'utmp',
  'tty',
  'disk',
  'kmem',
  'operator',
] as const;

/** Debian's useradd rule, lower-case only, no leading digit or dash. */
/** The account the panel makes on a server's first opening, next to root. */
export const DEFAULT_SYSTEM_USER = 'stackdeck';

export const systemUserName = z
  .string()
  .regex(
    /^[a-z_][a-z0-9_-]{0,31}$/,
    'Lower-case letters, digits, _ and -, starting with a letter (at most 32)',
  )
  .refine(
    (name) => !(RESERVED_USER_NAMES as readonly string[]).includes(name),
    'This name is reserved',
  );

/** Passwords travel over stdin to chpasswd; a colon or newline would change its input. */
export const systemUserPassword = z
  .string()
  .min(12, 'At least 12 characters')
  .max(128)
  .regex(/^[^:\n\r\0]+$/, 'No colons or line breaks');

/**
 * A password as the agent receives it: its SHA-512 crypt(3) hash, made by the panel, so the
 * password itself never leaves the panel and the panel may keep the hash until the server has it.
 */
export const passwordHash = z
  .string()
  .regex(/^\$6\$[./A-Za-z0-9]{1,16}\$[./A-Za-z0-9]{86}$/, 'A SHA-512 crypt hash');

/** Quotas in MB; 0 means none. */
export const quotaMb = z.coerce
  .number()
  .int()
  .min(0)
  .max(16 * 1024 * 1024);

/** RFC 1123 host name (letters, digits, hyphens; dots between labels). */
export const hostname = z
  .string()
  .max(253)
  .regex(
    /^(?=.{1,253}$)([a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)(\.[a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/,
    'Letters, digits and hyphens, in labels separated by dots',
  );

export const SSH_KEY_TYPES = [
  'ssh-ed25519',
  'ssh-rsa',
  'ecdsa-sha2-nistp256',
  'ecdsa-sha2-nistp384',
  'ecdsa-sha2-nistp521',
  'sk-ssh-ed25519@openssh.com',
  'sk-ecdsa-sha2-nistp256@openssh.com',
] as const;

/**
 * One OpenSSH public key line: type, base64 body, optional comment. No options prefix (no
 * `command=` or `from=`), so a key cannot smuggle restrictions or commands into authorized_keys.
 */
export const sshPublicKey = z
  .string()
  .trim()
  .max(16_384)
  .refine((line) => {
    const match = /^(\S+) ([A-Za-z0-9+/]+={0,3})(?: ([^\r\n]{0,256}))?$/.exec(line);
    if (!match || !(SSH_KEY_TYPES as readonly string[]).includes(match[1]!)) return false;
    // The body starts with the key type again, length-prefixed (atob: this runs in browsers too).
    let body: string;
    try {
      body = atob(match[2]!);
    } catch {
      return false;
    }
    if (body.length < 4) return false;
    const length =
      ((body.charCodeAt(0) << 24) |
        (body.charCodeAt(1) << 16) |
        (body.charCodeAt(2) << 8) |
        body.charCodeAt(3)) >>>
      0;
    return length > 0 && body.slice(4, 4 + length) === match[1];
  }, 'Paste one OpenSSH public key (ssh-ed25519 AAAA... comment)');

/** The services the panel controls, by the names users know. */
export const SERVICE_NAMES = [
  'nginx',
  'mariadb',
  'php-fpm',
  'supervisor',
  'cron',
  'sshd',
  'ftp',
  'mail',
] as const;
export const serviceName = z.enum(SERVICE_NAMES);
export const SERVICE_ACTIONS = ['start', 'stop', 'restart', 'reload'] as const;
export const serviceAction = z.enum(SERVICE_ACTIONS);

export const tcpPort = z.coerce.number().int().min(1).max(65535);
