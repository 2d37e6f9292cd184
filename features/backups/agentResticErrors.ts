/**
 * Why a restic 0.14 run failed, in words a user understands. 0.14 exits 1 for every fatal error
 * (the codes 10-12 for no repository, locked and wrong password arrive in 0.17), so the cause is
 * read from stderr; exit 3 is a snapshot missing the files restic could not read.
 */
import type { Unreadable } from './agentResticProgress';

export type FailureKind =
  | 'wrong_password'
  | 'no_repository'
  | 'locked'
  | 'unreachable'
  | 'denied'
  | 'disk_full'
  | 'interrupted'
  | 'partial'
  | 'dump_failed'
  | 'import_failed'
  | 'verify_failed'
  | 'failed';

export interface Failure {
  kind: FailureKind;
  /** For the user. */
  message: string;
  /** restic's (or the dump's) own last words, for the curious and for support. */
  detail: string;
}

/** How a run failed: every step returns this rather than throwing (a run is recorded either way). */
export interface Failed {
  status: 'failed';
  error: Failure;
}

export interface Ended {
  code: number | null;
  signal: NodeJS.Signals | null;
  stderr: string;
}

/**
 * Checked in order: an unreachable S3 or REST target also says "Is there a repository", an SFTP
 * login refused also "unable to start the sftp session".
 */
const RULES: [FailureKind, RegExp, string][] = [
  [
    'wrong_password',
    /wrong password or no key found/i,
    'The backup password does not open this repository (wrong password or key).',
  ],
  [
    'locked',
    /unable to create lock|repository is already locked/i,
    'The repository is locked by another backup or maintenance run; it is tried again later.',
  ],
  [
    'disk_full',
    /no space left on device|disk quota exceeded|QuotaExceeded|EntityTooLarge/i,
    'The backup storage is full.',
  ],
  [
    // ssh (an SFTP target) met a host key other than the pinned ones: never logged in.
    'unreachable',
    /Host key verification failed|REMOTE HOST IDENTIFICATION HAS CHANGED/i,
    "The backup storage's host key is not the one pinned for it (another server answered, or its key changed): check it with ssh-keyscan.",
  ],
  [
    'denied',
    // S3 reports a wrong key in words (minio-go passes on the message, not the code), next to
    // restic's "Is there a repository": checked before no_repository, or a repository would be
    // created over a refused login.
    /Access Denied|AccessDenied|403 Forbidden|InvalidAccessKeyId|SignatureDoesNotMatch|Access Key Id you provided does not exist|signature we calculated does not match|Permission denied \(publickey|401 Unauthorized/i,
    'The backup storage refused the credentials.',
  ],
  [
    'unreachable',
    /connection refused|no such host|i\/o timeout|network is unreachable|no route to host|connection reset|timed out|TLS handshake|certificate|dial tcp|unable to start the sftp session|Connection closed/i,
    'The backup storage cannot be reached (network, address or certificate).',
  ],
  [
    'no_repository',
    /Is there a repository at the following location|unable to open config file|The specified bucket does not exist|NoSuchBucket/i,
    'There is no backup repository at the storage yet (or it was removed).',
  ],
];

/** restic's last meaningful line ("Fatal: ..." preferred), without its noise. */
export function lastWords(stderr: string): string {
  const lines = stderr
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('{'));
  return (lines.filter((l) => l.startsWith('Fatal:')).pop() ?? lines.pop() ?? '').slice(0, 500);
}

/** The failure of a run that exited other than 0; `null` for 0. */
export function classifyExit(ended: Ended, unreadable: readonly Unreadable[] = []): Failure | null {
  const detail = lastWords(ended.stderr);
  if (ended.code === 0) return null;
  if (ended.code === 3) return { kind: 'partial', message: partialMessage(unreadable), detail };
  for (const [kind, pattern, message] of RULES)
    if (pattern.test(ended.stderr)) return { kind, message, detail };
  if (ended.signal || ended.code === 130)
    return {
      kind: 'interrupted',
      message: `The backup program was stopped (${ended.signal ?? 'interrupted'}) before it finished.`,
      detail,
    };
  if (ended.code === 127)
    return { kind: 'failed', message: 'restic is not installed on the server.', detail };
  return {
    kind: 'failed',
    message: `The backup program failed: ${detail || 'no reason given'}`,
    detail,
  };
}

/** Exit 3: the snapshot exists but lacks what could not be read. */
export function partialMessage(unreadable: readonly Unreadable[]): string {
  if (unreadable.length === 0)
    return 'Some files could not be read and are missing from this backup.';
  const shown = unreadable
    .slice(0, 3)
    .map((u) => `${u.item} (${u.error})`)
    .join(', ');
  const more = unreadable.length > 3 ? ` and ${unreadable.length - 3} more` : '';
  return `${unreadable.length === 1 ? 'One file' : `${unreadable.length} files`} could not be read and ${unreadable.length === 1 ? 'is' : 'are'} missing from this backup: ${shown}${more}.`;
}

/** A failure that is not restic's (a dump, an import, a verification). */
export const failed = (kind: FailureKind, message: string, detail = ''): Failed => ({
  status: 'failed',
  error: { kind, message, detail: detail.slice(0, 500) },
});
