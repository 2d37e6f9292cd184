/**
 * What the Node.js installer takes from a user and writes on a server (issue 11, research
 * hosting.md 2.4): the code's git address and branch, the entry file, the environment, the
 * port range and the supervisor program. Pure: the declaration, the form, the agent and the
 * tests share it. Every value here ends up in argv or in an ini file, so each is an allowlist.
 */
import { z } from 'zod';
import { APP_LOG_DIR, WRAPPER } from '../webapps/api';

/** The ports the allocator hands out (one per app and server, never twice). */
export const PORT_RANGE = { from: 3000, to: 3999 } as const;
/** The folder inside the app the code is cloned into; the program runs there. */
export const CODE_DIR = 'current';
/** The program of app A: `/etc/supervisor/conf.d/stackdeck-A.conf` (research 2.4). */
export const PROGRAM_PREFIX = 'stackdeck-';
export const programConfPath = (app: string) =>
  `/etc/supervisor/conf.d/${PROGRAM_PREFIX}${app}.conf`;
/**
 * The first line of a program file this feature wrote: an app's program is removed only when
 * its file says so, never a supervisor job of the same name the user made (features/supervisor).
 */
export const PROGRAM_MARK = '; stackdeck-node-app ';

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * Why a git address is refused, or null. https only (plain http for the server's own loopback,
 * a local mirror): no `ext::`, `file://`, ssh or local paths that git would also take, no
 * credentials (they would sit in the app's .git/config), nothing that argv could read as an
 * option.
 */
export function gitUrlProblem(value: string): string | null {
  if (value.startsWith('-')) return 'An address, not an option';
  if (/^[a-z][a-z0-9+.-]*::/i.test(value)) return 'Only https:// addresses';
  if (/[\s\0]/.test(value)) return 'No spaces in the address';
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'A full address such as https://github.com/you/app.git';
  }
  const loopback = LOOPBACK.has(url.hostname);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback))
    return 'Only https:// addresses';
  if (url.username || url.password) return 'No user name or password in the address';
  if (!url.hostname || url.hostname.startsWith('-')) return 'The address names no host';
  if (url.hash) return 'No #fragment in the address';
  return null;
}

export const gitUrl = z
  .string()
  .trim()
  .max(500)
  .superRefine((value, ctx) => {
    const problem = gitUrlProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

/** A branch or tag name as git allows it, and never an option (`-b --upload-pack=...`). */
export const gitBranch = z
  .string()
  .trim()
  .max(100)
  .regex(/^[A-Za-z0-9_][A-Za-z0-9._/-]*$/, 'Letters, digits and . _ / - (a branch or tag name)')
  .refine(
    (b) => !b.includes('..') && !b.includes('//') && !b.endsWith('/') && !b.endsWith('.lock'),
    'Not a name git allows',
  );

/**
 * The entry file, relative to the app's code: `server.js`, `src/index.mjs`. No `..` and no
 * dotfile segments; the agent also refuses one that resolves (by a link) outside the code.
 */
export const entryFile = z
  .string()
  .trim()
  .max(200)
  .regex(
    /^[A-Za-z0-9_][A-Za-z0-9._-]*(\/[A-Za-z0-9_][A-Za-z0-9._-]*)*\.(js|mjs|cjs)$/,
    'A .js, .mjs or .cjs file inside the app, such as server.js',
  )
  .refine((p) => !p.split('/').includes('..'), 'No ..');

/** Names the panel sets itself, or that would change how node or the loader runs. */
const RESERVED =
  /^(PORT|HOME|NODE_ENV|PATH|USER|LOGNAME|SHELL|NODE_OPTIONS|NODE_PATH|LD_.*|SUPERVISOR_.*)$/;

export const envKey = z
  .string()
  .regex(/^[A-Z][A-Z0-9_]{0,63}$/, 'Upper-case letters, digits and _ (such as API_URL)')
  .refine((k) => !RESERVED.test(k), 'The panel sets this one itself, or it is not allowed');

/** One line; no `"` or `\`, which supervisor's environment line would read as quoting. */
export const envValue = z
  .string()
  .max(500)
  .regex(/^[^\r\n\0"\\]*$/, 'One line, without " or \\');

/** The app's own environment: a few KEY=value pairs. */
export const envMap = z
  .record(z.string().max(64), envValue)
  .superRefine((map, ctx) => {
    const keys = Object.keys(map);
    if (keys.length > 20) ctx.addIssue({ code: 'custom', message: 'At most 20 variables' });
    // Each key's own words at its name (a record's key schema would only say "Invalid key").
    for (const key of keys) {
      const checked = envKey.safeParse(key);
      if (!checked.success)
        ctx.addIssue({ code: 'custom', path: [key], message: checked.error.issues[0]!.message });
    }
  })
  .default({});

/** The largest archive a user may upload (issue 11): its base64 is a third larger. */
export const MAX_ARCHIVE_BYTES = 100 * 1024 * 1024;
export const MAX_ARCHIVE_BASE64 = Math.ceil(MAX_ARCHIVE_BYTES / 3) * 4;
/** The base64 the panel hands the agent per op: 6 MiB of archive, well under a message's limit. */
export const ARCHIVE_CHUNK_BASE64 = 8 * 1024 * 1024;

export type ArchiveFormat = 'tgz' | 'zip';
/** The format by the file's name; the agent's listing then checks it is one. */
export const archiveFormatOf = (fileName: string): ArchiveFormat =>
  /\.zip$/i.test(fileName) ? 'zip' : 'tgz';

/** An uploaded archive of the app's code, as the install form sends it (base64, as WordPress's plugin zip). */
export const archiveUpload = z.object({
  /** The file's name as uploaded: its format, and the task's words. */
  file_name: z
    .string()
    .trim()
    .regex(/^[^/\\\n\0]{1,120}\.(tar\.gz|tgz|zip)$/i, 'A .tar.gz, .tgz or .zip file'),
  data: z
    .string()
    .min(4, 'The archive is empty')
    .max(MAX_ARCHIVE_BASE64, `The archive is larger than ${MAX_ARCHIVE_BYTES / 1024 ** 2} MB`)
    .regex(/^[A-Za-z0-9+/]+={0,2}$/, 'The archive, base64'),
});

/** `%` is supervisor's interpolation: a literal one is written `%%`. */
const literal = (value: string) => value.replace(/%/g, '%%');

export interface NodeProgram {
  app: string;
  user: string;
  home: string;
  /** The code's folder (`/home/U/apps/A/current`). */
  directory: string;
  /** The entry file's absolute path inside it. */
  entry: string;
  port: number;
  env: Record<string, string>;
}

/**
 * The supervisor program of an app, as research 2.4 writes it: node itself, not `npm start`
 * (npm does not pass signals on), stop and kill as a group (no orphan keeps the port). The file
 * is root's and 0600: the environment may hold the app's secrets.
 */
export function renderNodeProgram(p: NodeProgram): string {
  const env = [
    'NODE_ENV="production"',
    `PORT="${p.port}"`,
    `HOME="${literal(p.home)}"`,
    ...Object.entries(p.env).map(([k, v]) => `${k}="${literal(v)}"`),
  ].join(',');
  return [
    `${PROGRAM_MARK}${p.app}`,
    '; Written by Stackdeck: changes here are replaced. Use the panel.',
    `[program:${PROGRAM_PREFIX}${p.app}]`,
    // Through the limits wrapper (features/webapps/limits.ts), which execs node: same pid.
    `command=${WRAPPER} -- /usr/bin/node ${literal(p.entry)}`,
    `directory=${literal(p.directory)}`,
    `user=${p.user}`,
    `environment=${env}`,
    'autostart=true',
    'autorestart=true',
    'startsecs=3',
    'stopsignal=TERM',
    'stopasgroup=true',
    'killasgroup=true',
    'stopwaitsecs=20',
    'redirect_stderr=true',
    `stdout_logfile=${nodeLogPath(p.app)}`,
    'stdout_logfile_maxbytes=10MB',
    'stdout_logfile_backups=5',
    '',
  ].join('\n');
}

/**
 * The app's output, beside its nginx logs: supervisord writes it as root, so it goes to the
 * app's root-owned log folder (its group reads it), never into a folder the user could swap
 * for a link.
 */
export const nodeLogPath = (app: string) => `${APP_LOG_DIR}/${app}/node.log`;

/** The ports `ss -Hltn` shows listening (any address), from its fourth column. */
export function listeningPorts(ssOutput: string): number[] {
  const ports = new Set<number>();
  for (const line of ssOutput.split('\n')) {
    const local = line.trim().split(/\s+/)[3];
    const m = local && /:(\d+)$/.exec(local);
    if (m) ports.add(Number(m[1]));
  }
  return [...ports].sort((a, b) => a - b);
}
