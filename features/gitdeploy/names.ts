/**
 * What a git deploy accepts from a user, as allowlists the panel, the agent and the form share:
 * repository URLs git cannot read as an option or a transport helper, branch names
 * `git check-ref-format --branch` accepts, and the deployment script's limits.
 */
import { z } from 'zod';

/** Host names and IPv4 addresses; never a leading `-` (ssh would read it as an option). */
const HOST = '[A-Za-z0-9](?:[A-Za-z0-9.-]{0,252}[A-Za-z0-9])?';
/** A path on the git server: no spaces, quotes, `;`, `$`, backslashes or `..` segments. */
const REPO_PATH = '[A-Za-z0-9._~/+-]{1,300}';

/** `git@host:owner/repo.git` (scp-like ssh), the only form without a scheme. */
const SCP_LIKE = new RegExp(`^([a-z_][a-z0-9_.-]{0,31})@(${HOST}):(${REPO_PATH})$`);
/** `ssh://[user@]host[:port]/path` and `https://host[:port]/path`. */
const WITH_SCHEME = new RegExp(
  `^(ssh|https)://(?:([a-z_][a-z0-9_.-]{0,31})@)?(${HOST})(?::(\\d{1,5}))?/(${REPO_PATH})$`,
);

export interface RepoParts {
  transport: 'ssh' | 'https';
  host: string;
  port: number;
}

/** The URL's transport, host and port, or null for a URL outside the allowlist. */
export function repoParts(url: string): RepoParts | null {
  const scp = SCP_LIKE.exec(url);
  if (scp)
    return scp[3]!.split('/').includes('..') ? null : { transport: 'ssh', host: scp[2]!, port: 22 };
  const m = WITH_SCHEME.exec(url);
  if (!m || m[5]!.split('/').includes('..')) return null;
  const port = m[4] ? Number(m[4]) : m[1] === 'ssh' ? 22 : 443;
  if (port < 1 || port > 65535) return null;
  return { transport: m[1] as 'ssh' | 'https', host: m[3]!, port };
}

/**
 * A repository git reaches over the network: never a leading `-` (`--upload-pack=...`), a
 * transport helper (`ext::sh -c ...`), `file://` or a local path, whitespace or control
 * characters. https URLs carry no credentials (they would be stored and shown).
 */
export const repositoryUrl = z
  .string()
  .trim()
  .max(400)
  .refine(
    (url) => repoParts(url) !== null,
    'A repository URL: git@host:owner/repo.git, ssh://git@host/owner/repo.git or https://host/owner/repo.git',
  );

/**
 * The checks of `git check-ref-format --branch`, plus no leading `-`: no `..`, `@{`, `//`, control
 * characters, space, `~^:?*[\`, no component starting with `.` or ending with `.lock`, not ending
 * with `/` or `.`, not `@`.
 */
export function branchProblem(name: string): string | null {
  if (!name) return 'Give the branch';
  if (name.length > 200) return 'At most 200 characters';
  if (name.startsWith('-')) return 'A branch name cannot start with -';
  // eslint-disable-next-line no-control-regex
  if (/[\x00-\x20\x7f~^:?*[\\]/.test(name)) return 'No spaces or any of ~ ^ : ? * [ \\';
  if (name.includes('..') || name.includes('@{') || name.includes('//')) return 'No .., @{ or //';
  if (name === '@' || name.endsWith('/') || name.endsWith('.') || name.startsWith('/'))
    return 'Not @, and not starting with / or ending with / or .';
  if (name.split('/').some((part) => part.startsWith('.') || part.endsWith('.lock')))
    return 'No part may start with . or end with .lock';
  return null;
}

export const branchName = z
  .string()
  .trim()
  .superRefine((value, ctx) => {
    const problem = branchProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

/** The deployment script: bash, run with -e in the new release; 16 KiB at most. */
export const SCRIPT_LIMIT = 16 * 1024;
export const deployScript = z
  .string()
  .max(SCRIPT_LIMIT, `At most ${SCRIPT_LIMIT} characters`)
  .refine((s) => !s.includes('\0'), 'No NUL characters')
  .default('');

/** The path the health check asks for through nginx after the switch. */
export const healthPath = z
  .string()
  .trim()
  .max(200)
  .regex(/^\/[A-Za-z0-9._~/?=&%+-]*$/, 'A path starting with /, e.g. /health')
  .default('/');

/** A pinned host key line (`host keytype base64`) as ssh-keyscan prints it. */
export const knownHostLine = z
  .string()
  .regex(/^[A-Za-z0-9.[\]:-]+ (ssh-ed25519|ecdsa-sha2-nistp256|ssh-rsa) [A-Za-z0-9+/=]{20,1000}$/);

/** Releases kept on the server (the current one and older ones to roll back to). */
export const KEEP_RELEASES = 5;
/** The deployment script's time-out. */
export const SCRIPT_TIMEOUT_MS = 15 * 60_000;
