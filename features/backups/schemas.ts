/**
 * What backups are, for every program (panel, agent, browser): the restic values an op may
 * carry (checked against allowlists before anything reaches restic's argv), the policies, their
 * runs (the spec's storage files), the storage targets, credit, and the forms' inputs. Pure zod:
 * no node module, so the browser imports it too.
 */
import { z } from 'zod';
import { DB_NAME, RESERVED_DATABASES } from '../databases/api';

/**
 * A snapshot's tags: `app:<id>`, `db:<id>`, `type:webapp|database` and the like. No comma (restic
 * splits `--tag a,b` into two) and a known kind, so forget's `--tag` filter means what it says.
 * Never a tag that changes from run to run (a run id): forget groups by host and the whole tag
 * set, and each run would be a group of its own that no keep-* rule ever thins out.
 */
export const TAG = /^(app|db|type|user|policy):[A-Za-z0-9._-]{1,64}$/;
/** `--host`: the server's uuid (any host-name-like word). */
export const HOST = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
/** A snapshot named by its id (full or the 8-digit short one); `latest` is never guessed. */
export const SNAPSHOT_ID = /^[0-9a-f]{8,64}$/;

export const tagSchema = z.string().regex(TAG, 'A tag is kind:value (app, db, type, user, policy)');
export const hostSchema = z.string().regex(HOST, 'A host is the server uuid');
export const snapshotSchema = z.string().regex(SNAPSHOT_ID, 'A snapshot id is hex');
export const databaseSchema = z
  .string()
  .regex(DB_NAME, 'A database name is letters, digits and _')
  .refine((n) => !RESERVED_DATABASES.includes(n.toLowerCase()), "MariaDB's own database");
/** No control character (NUL, line breaks, escapes): what restic or a log line could misread. */
export const printable = (s: string) => ![...s].some((c) => c.charCodeAt(0) < 32 || c === '\x7f');

/** An exclude pattern, one argv element (`--exclude=<p>`): printable, no line breaks. */
export const excludeSchema = z
  .string()
  .min(1)
  .max(255)
  .refine(printable, 'An exclude is one line of text');

/** Where a repository is: a local path, or restic's rest:, s3:, sftp: backends. */
export const repositorySchema = z
  .string()
  .max(2000)
  .regex(/^(\/|rest:https?:\/\/|s3:|sftp:)/, 'A repository is a path or a URL')
  .refine(printable, 'A repository is one line of text');

/** The storage's credentials restic reads from its environment (S3 targets). */
export const STORAGE_ENV = [
  'AWS_ACCESS_KEY_ID',
  'AWS_SECRET_ACCESS_KEY',
  'AWS_SESSION_TOKEN',
  'AWS_DEFAULT_REGION',
] as const;

export const DEFAULT_CACHE_DIR = '/var/cache/stackdeck/restic';

/** A file ssh is given inside restic's `sftp.command` (restic splits it on spaces: none here). */
const SSH_FILE = /^\/[A-Za-z0-9._/-]+$/;

/** The host key types a storage may be pinned with (what `ssh-keyscan` prints by default). */
export const HOST_KEY_TYPES = [
  'ssh-ed25519',
  'ecdsa-sha2-nistp256',
  'ecdsa-sha2-nistp384',
  'ecdsa-sha2-nistp521',
  'ssh-rsa',
] as const;
/** One pinned host key: `type base64` (no host, no comment). */
export const HOST_KEY =
  /^(ssh-ed25519|ecdsa-sha2-nistp256|ecdsa-sha2-nistp384|ecdsa-sha2-nistp521|ssh-rsa) [A-Za-z0-9+/]{20,2800}={0,2}$/;

/** The key type a base64 key blob names in its first field, or null when it is not a blob. */
function blobType(base64: string): string | null {
  try {
    const head = atob(base64.slice(0, 64).replace(/=+$/, '').slice(0, 60));
    const length =
      (head.charCodeAt(0) << 24) |
      (head.charCodeAt(1) << 16) |
      (head.charCodeAt(2) << 8) |
      head.charCodeAt(3);
    return length > 0 && length <= 40 ? head.slice(4, 4 + length) : null;
  } catch {
    return null;
  }
}

/**
 * The host keys in what `ssh-keyscan [-p port] host` prints (or a known_hosts line): each
 * line's `type base64` of an allowed type whose blob names the same type; comments (`#`), other
 * types and anything else are left out. Each key once.
 */
export function hostKeysOf(text: string): string[] {
  const keys: string[] = [];
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const words = line.split(/\s+/);
    const at = words.findIndex((w) => (HOST_KEY_TYPES as readonly string[]).includes(w));
    if (at < 0) continue;
    const key = `${words[at]} ${words[at + 1] ?? ''}`;
    if (HOST_KEY.test(key) && blobType(words[at + 1]!) === words[at] && !keys.includes(key))
      keys.push(key);
  }
  return keys;
}

/** The name ssh looks an SFTP host up by in known_hosts: `host`, or `[host]:port` off port 22. */
export function knownHostPattern(host: string, port: number | undefined): string {
  return port && port !== 22 ? `[${host}]:${port}` : host;
}

/** An OpenSSH private key (the account's key for SFTP storage): the PEM armour, base64 inside. */
const OPENSSH_PRIVATE_KEY =
  /^-----BEGIN OPENSSH PRIVATE KEY-----\n[A-Za-z0-9+/=\n]+\n-----END OPENSSH PRIVATE KEY-----\n?$/;

/**
 * How ssh reaches an SFTP target (`sftp:user@host:/path`): its port, the account's key and the
 * target's pinned host keys. The panel sends the key and host keys themselves; the agent writes
 * them to a root-only folder for the op (agentTargetFiles.ts) and restic's ssh is given the files
 * (`identity_file`, `known_hosts_file`). The host key is always checked (no prompt: BatchMode).
 */
export const sftpSchema = z.object({
  port: z.number().int().min(1).max(65535).optional(),
  private_key: z.string().max(8000).regex(OPENSSH_PRIVATE_KEY, 'An OpenSSH private key').optional(),
  host_keys: z
    .array(z.string().regex(HOST_KEY, 'A host key: type base64'))
    .min(1)
    .max(10)
    .optional(),
  identity_file: z.string().regex(SSH_FILE).optional(),
  known_hosts_file: z.string().regex(SSH_FILE).optional(),
  /** ssh's own log (`-E`): restic relays ssh's stderr from a goroutine it does not wait for. */
  log_file: z.string().regex(SSH_FILE).optional(),
});

/** One or more PEM certificates, nothing else (it becomes a file restic reads as `--cacert`). */
export const caPemSchema = z
  .string()
  .trim()
  .max(20_000)
  .regex(
    /^(-----BEGIN CERTIFICATE-----\r?\n[A-Za-z0-9+/=\r\n]+-----END CERTIFICATE-----\s*)+$/,
    'PEM certificates (-----BEGIN CERTIFICATE----- ...)',
  );

/** A repository and how to open it: what an op receives from the panel for one job. */
export const targetSchema = z.object({
  repository: repositorySchema,
  password: z.string().min(1).max(1024),
  env: z.partialRecord(z.enum(STORAGE_ENV), z.string().max(4096)).optional(),
  /** A CA file for a storage with its own certificate (`--cacert`). */
  cacert: z.string().startsWith('/').optional(),
  /**
   * The storage's own CA as the panel holds it (PEM): the agent writes it to a root-only file
   * for the op and hands restic that file as `cacert` (agentTargetFiles.ts).
   */
  cacert_pem: caPemSchema.optional(),
  cache_dir: z.string().startsWith('/').optional(),
  /** For an `sftp:` repository: restic gets `-o sftp.command=ssh ...` built from these. */
  sftp: sftpSchema.optional(),
});

export const retentionSchema = z.object({
  /** At least the newest one: a forget never removes the run that just succeeded. */
  keep_last: z.number().int().min(1).max(1000),
  keep_daily: z.number().int().min(0).max(3660).default(0),
  keep_weekly: z.number().int().min(0).max(520).default(0),
  keep_monthly: z.number().int().min(0).max(240).default(0),
  keep_yearly: z.number().int().min(0).max(100).default(0),
});

// ---- Policies, runs, targets (spec s.7 "Backups"; the spec's `{backupId}` is a policy) ----

export const BACKUP_TYPES = ['webapp', 'database'] as const;
export type BackupType = (typeof BACKUP_TYPES)[number];
export const backupType = z.enum(BACKUP_TYPES, {
  message: 'A backup is of a webapp or a database',
});

/** How often a policy runs; the time is in the policy's time zone (the user's by default). */
export const BACKUP_FREQUENCIES = ['hourly', 'daily', 'weekly', 'monthly'] as const;
export type BackupFrequency = (typeof BACKUP_FREQUENCIES)[number];
/** The longest wait between two runs of each frequency (a policy is stale after twice this). */
export const FREQUENCY_SECONDS: Record<BackupFrequency, number> = {
  hourly: 3600,
  daily: 86_400,
  weekly: 7 * 86_400,
  monthly: 31 * 86_400,
};

/** A run's state: `partial` is restic's exit 3 (some files unreadable; the rest is saved). */
export const RUN_STATUSES = ['queued', 'running', 'ok', 'partial', 'failed'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];
export const RUN_TRIGGERS = ['schedule', 'manual'] as const;

/**
 * What a policy's page shows in one word: `ok` (a verified snapshot younger than twice the
 * interval), `unverified` (a snapshot, none verified in time), `failing` (no good snapshot in
 * twice the interval, or the last check found damage), `never` (no run yet), `paused`.
 */
export const POLICY_HEALTH = ['ok', 'unverified', 'failing', 'never', 'paused'] as const;

/** Where snapshots go: the panel's own storage (every account's default), S3, SFTP. */
export const TARGET_KINDS = ['panel', 's3', 'sftp'] as const;
export type TargetKind = (typeof TARGET_KINDS)[number];

const HHMM = /^([01]\d|2[0-3]):[0-5]\d$/;
/** Excludes a new app policy starts with: caches and logs are not worth restoring. */
export const DEFAULT_EXCLUDES = ['logs', '*.log', 'cache', 'tmp', 'wp-content/cache'] as const;

export const backupPolicyInput = z.object({
  type: backupType,
  /** The server of the app or database: one the user reaches (loaded by the request hook). */
  server_id: z.coerce.number().int().positive(),
  /** With type webapp: an app of that server. */
  webapp_id: z.coerce.number().int().positive().nullish(),
  /** With type database: a database of that server. */
  database_id: z.coerce.number().int().positive().nullish(),
  /** A storage target of the account; none = the panel's own storage. */
  target_id: z.coerce.number().int().positive().nullish(),
  frequency: z.enum(BACKUP_FREQUENCIES).default('daily'),
  /** `HH:MM` (hourly: only the minutes count). */
  at: z.string().regex(HHMM, 'A time is HH:MM').default('03:00'),
  /** Weekly: 0 = Sunday ... 6 = Saturday. */
  weekday: z.coerce.number().int().min(0).max(6).default(0),
  /** Monthly: 1..28, so every month has the day. */
  day: z.coerce.number().int().min(1).max(28).default(1),
  /** An IANA zone; the user's own when absent. */
  timezone: z.string().trim().max(64).nullish(),
  keep_last: z.coerce.number().int().min(1, 'Keep at least the last run').max(1000).default(7),
  keep_daily: z.coerce.number().int().min(0).max(3660).default(7),
  keep_weekly: z.coerce.number().int().min(0).max(520).default(4),
  keep_monthly: z.coerce.number().int().min(0).max(240).default(6),
  excludes: z
    .array(excludeSchema)
    .max(100)
    .default([...DEFAULT_EXCLUDES]),
  /** `--limit-upload` in KiB/s; none = unlimited. */
  upload_limit_kib: z.coerce.number().int().min(16).max(10_000_000).nullish(),
  /** `nice -n 19 ionice -c2 -n7`, on by default: a backup never starves the sites it saves. */
  gentle: z.boolean().default(true),
  enabled: z.boolean().default(true),
});
export type BackupPolicyInput = z.input<typeof backupPolicyInput>;

const policyField = backupPolicyInput.shape;
/**
 * PATCH backups/{backupId}: what may change (not the type, server or subject). Without the
 * input's defaults: a field the call leaves out stays as it is (a `.partial()` of the input
 * would fill it with its default and reset it).
 */
export const backupPolicyChange = z
  .object({
    target_id: policyField.target_id,
    frequency: policyField.frequency.unwrap(),
    at: policyField.at.unwrap(),
    weekday: policyField.weekday.unwrap(),
    day: policyField.day.unwrap(),
    timezone: policyField.timezone,
    keep_last: policyField.keep_last.unwrap(),
    keep_daily: policyField.keep_daily.unwrap(),
    keep_weekly: policyField.keep_weekly.unwrap(),
    keep_monthly: policyField.keep_monthly.unwrap(),
    excludes: policyField.excludes.unwrap(),
    upload_limit_kib: policyField.upload_limit_kib,
    gentle: policyField.gentle.unwrap(),
    enabled: policyField.enabled.unwrap(),
  })
  .partial();

/** PATCH manage-backups/{backupId}: switch on or off. */
export const backupToggle = z.object({ enabled: z.boolean() });

export const backupRunSchema = z.object({
  id: z.number().int(),
  backup_id: z.number().int(),
  status: z.enum(RUN_STATUSES),
  trigger: z.enum(RUN_TRIGGERS),
  snapshot_id: z.string().nullable(),
  files: z.number().int().nullable(),
  /** Bytes the snapshot holds (the app's tree or the dump). */
  size_bytes: z.number().int().nullable(),
  /** Bytes this run added to the repository (deduplicated, compressed). */
  added_bytes: z.number().int().nullable(),
  duration_ms: z.number().int().nullable(),
  /** Why it failed or what was left out, in words. */
  error: z.string().nullable(),
  /** The run's task (live progress in the messages panel). */
  task_id: z.number().int().nullable(),
  /** A check or test restore that read this snapshot back. */
  verified_at: z.string().nullable(),
  /** Forgotten by retention or deleted: listed no more once pruned. */
  removed: z.boolean(),
  started_at: z.string().nullable(),
  ended_at: z.string().nullable(),
  created_at: z.string(),
});
export type BackupRun = z.infer<typeof backupRunSchema>;

export const backupPolicySchema = z.object({
  id: z.number().int(),
  user_id: z.number().int(),
  type: backupType,
  server_id: z.number().int(),
  server_name: z.string(),
  webapp_id: z.number().int().nullable(),
  database_id: z.number().int().nullable(),
  /** The app's or database's name. */
  subject: z.string(),
  target_id: z.number().int().nullable(),
  target_name: z.string(),
  frequency: z.enum(BACKUP_FREQUENCIES),
  at: z.string(),
  weekday: z.number().int(),
  day: z.number().int(),
  timezone: z.string(),
  /** The schedule in words ("Every day at 03:00 (Europe/Lisbon)"). */
  schedule_text: z.string(),
  keep_last: z.number().int(),
  keep_daily: z.number().int(),
  keep_weekly: z.number().int(),
  keep_monthly: z.number().int(),
  excludes: z.array(z.string()),
  upload_limit_kib: z.number().int().nullable(),
  gentle: z.boolean(),
  enabled: z.boolean(),
  /**
   * Why a switched-off policy cannot run again: "Its server was removed", "Its app was
   * deleted", "Its database was deleted"; null when the user paused it (or it is on).
   */
  paused_reason: z.string().nullable(),
  health: z.enum(POLICY_HEALTH),
  last_run: backupRunSchema.nullable(),
  next_run_at: z.string().nullable(),
  /** The newest snapshot a check or test restore read back. */
  verified_at: z.string().nullable(),
  /** Bytes the kept snapshots hold together. */
  stored_bytes: z.number().int(),
  created_at: z.string(),
});
export type BackupPolicy = z.infer<typeof backupPolicySchema>;

/** What a replace-restore swapped out: an app's folder (files) or a database. */
export const RESTORE_KINDS = ['files', 'database'] as const;
export type RestoreKind = (typeof RESTORE_KINDS)[number];
/** `kept` until the user keeps the restore, then `dropped` (the previous copy removed). */
export const RESTORE_STATES = ['kept', 'dropped'] as const;
export type RestoreState = (typeof RESTORE_STATES)[number];

/** A previous copy a restore of one of the policy's files kept on its server. */
export const backupRestoreSchema = z.object({
  id: z.number().int(),
  backup_id: z.number().int(),
  /** The file (run) restored. */
  run_id: z.number().int(),
  /** Where the copy is (the restore's destination server). */
  server_id: z.number().int(),
  kind: z.enum(RESTORE_KINDS),
  /** The kept folder (absolute path) or database name. */
  previous: z.string(),
  state: z.enum(RESTORE_STATES),
  /** When the restore swapped in. */
  created_at: z.string(),
  dropped_at: z.string().nullable(),
});
export type BackupRestore = z.infer<typeof backupRestoreSchema>;

/** PATCH keep-restores/{backupId}: keep this restore, i.e. remove the previous copy it kept. */
export const keepRestoreInput = z.object({ restore_id: z.coerce.number().int().positive() });

/** GET backups/{backupId}: the policy and its files (runs), newest first, a page of them. */
export const backupDetailSchema = backupPolicySchema.extend({
  files: z.array(backupRunSchema),
  files_total: z.number().int(),
  /** The previous copies its restores still keep, newest first. */
  restores: z.array(backupRestoreSchema),
});

/** PATCH restore-backups: what to restore from a file (a run's snapshot), and where. */
export const RESTORE_MODES = ['replace', 'new', 'path'] as const;
export const restoreInput = z.object({
  /** The run (storage file) whose snapshot is restored. */
  file_id: z.coerce.number().int().positive(),
  /**
   * `replace`: the whole app or database, restored beside it, checked, then swapped in (the
   * previous kept until confirmed); `new`: into another app or database (`to_*_id`), left as
   * restored; `path`: one file or folder of an app back into place.
   */
  mode: z.enum(RESTORE_MODES).default('replace'),
  /** With mode path: relative to the app's folder. */
  path: z
    .string()
    .trim()
    .max(1024)
    .refine((p) => !p.startsWith('/') && !p.split('/').includes('..') && printable(p), {
      message: 'A path inside the app, without ..',
    })
    .nullish(),
  /** With mode new: another app or database (of any server the user reaches). */
  to_webapp_id: z.coerce.number().int().positive().nullish(),
  to_database_id: z.coerce.number().int().positive().nullish(),
});
export type RestoreInput = z.input<typeof restoreInput>;

/** DELETE remove-backups?sid=&file_id=: one file (snapshot) of a policy. */
export const removeFileQuery = z.object({
  sid: z.coerce.number().int().positive(),
  file_id: z.coerce.number().int().positive(),
});

export const backupTargetSchema = z.object({
  id: z.number().int(),
  kind: z.enum(TARGET_KINDS),
  name: z.string(),
  /** Where, without credentials (`s3:https://host/bucket/prefix`, `sftp:user@host:/path`). */
  location: z.string(),
  /** The last four of the access key, or the SSH key's fingerprint: never the secret. */
  hint: z.string(),
  used_bytes: z.number().int(),
  created_at: z.string(),
});
export type BackupTarget = z.infer<typeof backupTargetSchema>;

const hostPort = z
  .string()
  .trim()
  .max(253)
  .regex(/^[A-Za-z0-9.-]+(:\d{1,5})?$/, 'A host name or address, with an optional :port');
const bucketPath = z
  .string()
  .trim()
  .max(255)
  .regex(/^[a-z0-9][a-z0-9.-]{1,62}(\/[A-Za-z0-9._-]+)*$/, 'A bucket, then an optional /prefix');

/** PATCH backup-storage: add (no id) or change a target; `remove: true` with an id deletes it. */
export const backupTargetInput = z.discriminatedUnion('kind', [
  z.object({
    id: z.coerce.number().int().positive().optional(),
    kind: z.literal('s3'),
    name: z.string().trim().min(1, 'Name the storage').max(64),
    endpoint: hostPort,
    /** The storage's own CA certificate (PEM), for a private endpoint. */
    ca_pem: z.union([z.literal(''), caPemSchema]).optional(),
    bucket: bucketPath,
    region: z.string().trim().max(64).optional(),
    access_key_id: z.string().trim().min(1).max(128),
    secret_access_key: z.string().min(1).max(256),
  }),
  z.object({
    id: z.coerce.number().int().positive().optional(),
    kind: z.literal('sftp'),
    name: z.string().trim().min(1, 'Name the storage').max(64),
    host: hostPort,
    user: z.string().regex(/^[a-z_][a-z0-9_-]{0,31}$/, 'A user name'),
    path: z
      .string()
      .regex(/^\/[A-Za-z0-9._/-]*$/, 'An absolute path')
      .refine((p) => !p.split('/').includes('..'), 'No ..'),
    /**
     * What `ssh-keyscan [-p port] host` prints: its host keys (`hostKeysOf`, up to 10) are pinned,
     * never trusted on first use; comments and other key types are left out. Kept as text here
     * (the form sends what was pasted); the panel keeps the keys alone.
     */
    known_host: z
      .string()
      .trim()
      .min(1, 'Paste what ssh-keyscan prints for the storage')
      .max(16_000)
      .refine(
        (text) => hostKeysOf(text).length > 0,
        'No host key found: paste what `ssh-keyscan -p PORT host` prints (ed25519, ECDSA or RSA keys)',
      ),
  }),
]);
export type BackupTargetInput = z.input<typeof backupTargetInput>;
export const backupTargetRemoval = z.object({
  id: z.coerce.number().int().positive(),
  remove: z.literal(true),
});

/** GET backup-storage: the account's targets and what its kept snapshots use on each. */
export const backupStorageSchema = z.object({
  used_bytes: z.number().int(),
  credit_bytes: z.number().int(),
  targets: z.array(backupTargetSchema),
  /** An SFTP target's public key (to put in the storage's authorized_keys). */
  sftp_public_key: z.string().nullable(),
});

/** A credit ledger line: bytes of the panel's storage granted or taken, and by whom. */
export const creditEntrySchema = z.object({
  id: z.number().int(),
  delta_bytes: z.number().int(),
  reason: z.string(),
  /** The admin's name, or `metering` / `plan`. */
  by: z.string(),
  created_at: z.string(),
});

/** GET backup-credit: the allowance on the panel's storage, what is used, and the ledger. */
export const backupCreditSchema = z.object({
  credit_bytes: z.number().int(),
  used_bytes: z.number().int(),
  /** When the daily metering last measured. */
  metered_at: z.string().nullable(),
  ledger: z.array(creditEntrySchema),
});

/** PATCH admin/backup-credit?uid=&type=add|remove: bytes, with a reason for the ledger. */
export const creditChangeQuery = z.object({
  uid: z.coerce.number().int().positive(),
  type: z.enum(['add', 'remove']),
});
export const creditChangeBody = z.object({
  gb: z.coerce.number().positive().max(100_000),
  reason: z.string().trim().min(3, 'Say why, for the ledger').max(500),
});
export const GB = 1024 ** 3;

/**
 * The allowance on the panel's own storage an account has before any ledger line (the ledger's
 * lines add to it or take from it). 10 GB: restic deduplicates and compresses, so a few sites
 * and databases with weeks of daily backups fit, and a new account's backups work from its
 * first day without an admin; yet no one account can fill the panel's disk. An account with
 * more needs asks for credit, or adds its own S3 or SFTP storage (never limited by credit).
 */
export const DEFAULT_CREDIT_BYTES = 10 * GB;
