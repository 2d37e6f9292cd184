/**
 * The backup pages' words and small rules, apart from React so a unit test reads them
 * (tests/unit/ui-backups.test.ts): paths, health and status chips, durations, what a restore
 * replaces, a policy's schedule fields by frequency.
 */
import type {
  BackupFrequency,
  BackupPolicy,
  BackupRun,
  BackupType,
  POLICY_HEALTH,
  RunStatus,
} from './schemas';

type Health = (typeof POLICY_HEALTH)[number];
type Tone = 'success' | 'warning' | 'error' | 'default' | 'info';

/** The pages of each type: its policies, one policy's files. */
export const backupPaths = {
  overview: '/backup',
  list: (type: BackupType) => (type === 'webapp' ? '/account-backups' : '/database-backups'),
  files: (type: BackupType, id: number) =>
    `${type === 'webapp' ? '/account-backup-files' : '/database-backup-files'}/${id}`,
};

/** What a type is called: "web app" / "database". */
export const typeWords = (type: BackupType) =>
  type === 'webapp'
    ? { one: 'web app', many: 'web apps', title: 'Web app backups' }
    : { one: 'database', many: 'databases', title: 'Database backups' };

export const HEALTH_WORDS: Record<Health, { label: string; tone: Tone; hint: string }> = {
  ok: { label: 'OK', tone: 'success', hint: 'A recent backup was read back and checked' },
  unverified: {
    label: 'Unverified',
    tone: 'warning',
    hint: 'Backups exist, but none was checked in time',
  },
  failing: { label: 'Failing', tone: 'error', hint: 'No good backup within twice its interval' },
  never: { label: 'Never run', tone: 'default', hint: 'No backup was taken yet' },
  paused: { label: 'Paused', tone: 'default', hint: 'The schedule is switched off' },
};

export const STATUS_WORDS: Record<RunStatus, { label: string; tone: Tone }> = {
  queued: { label: 'Queued', tone: 'info' },
  running: { label: 'Running', tone: 'info' },
  ok: { label: 'OK', tone: 'success' },
  partial: { label: 'Partial', tone: 'warning' },
  failed: { label: 'Failed', tone: 'error' },
};

/** A run still under way: the page keeps asking until it ends. */
export const runActive = (run: Pick<BackupRun, 'status'> | null | undefined) =>
  run?.status === 'queued' || run?.status === 'running';

/** "850 ms", "12 s", "3 min 5 s", "1 h 2 min". */
export function durationText(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || ms < 0) return '—';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return s % 60 ? `${m} min ${s % 60} s` : `${m} min`;
  const h = Math.floor(m / 60);
  return m % 60 ? `${h} h ${m % 60} min` : `${h} h`;
}

/** The share of the credit used, 0..100 (over the credit shows full). */
export function usedPercent(used: number, credit: number): number {
  if (credit <= 0) return used > 0 ? 100 : 0;
  return Math.min(100, Math.max(0, Math.round((used / credit) * 100)));
}

/** Whether runs to the panel's storage are refused: the metered use at or over the credit. */
export function creditFull(used: number, credit: number): boolean {
  return used >= credit;
}

/** Which schedule fields a frequency asks for (hourly: only the minute of `at`). */
export function scheduleFields(frequency: BackupFrequency) {
  return {
    at: true,
    weekday: frequency === 'weekly',
    day: frequency === 'monthly',
  };
}

export const WEEKDAYS = [
  'Sunday',
  'Monday',
  'Tuesday',
  'Wednesday',
  'Thursday',
  'Friday',
  'Saturday',
] as const;

/** Excludes as the form edits them (one a line) and as the API carries them (a list). */
export const excludesToText = (excludes: readonly string[]) => excludes.join('\n');
export const textToExcludes = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);

/** A file (run) in words: "the backup of shop from 28 Nov 2026, 03:00". */
export function fileName(
  policy: Pick<BackupPolicy, 'subject'>,
  run: Pick<BackupRun, 'created_at' | 'started_at'>,
  when: (v: string) => string,
) {
  return `the backup of ${policy.subject} from ${when(run.started_at ?? run.created_at)}`;
}

export type RestoreMode = 'replace' | 'new' | 'path';

/**
 * What a restore does, said before it is confirmed: what gets replaced, and that the previous
 * one is kept (replace), or where it lands (into another, one path).
 */
export function restoreConsequence(
  type: BackupType,
  subject: string,
  mode: RestoreMode,
  target?: { name?: string | null; path?: string | null },
): string {
  const what = typeWords(type).one;
  if (mode === 'new')
    return `This backup of ${subject} is restored into the ${what} ${target?.name ?? '(none picked)'}: what that ${what} holds now is replaced. ${subject} itself is left as it is.`;
  if (mode === 'path')
    return `${target?.path || '(no path)'} in ${subject} is put back as it was in this backup; the rest of the app is left as it is. The present copy of that path is kept aside.`;
  return `The whole ${what} ${subject} is replaced by this backup, once it was restored beside it and checked. The present ${what} is kept aside until you confirm, so you can go back.`;
}

/** A kept copy's notice and its confirmation: what a restore kept, and what keeping it deletes. */
export function keptCopyWords(
  kept: { kind: 'files' | 'database'; previous: string; created_at: string },
  when: (iso: string) => string,
): { notice: string; button: string; title: string; confirm: string } {
  const files = kept.kind === 'files';
  const what = files ? 'files' : 'database';
  return {
    notice: files
      ? `Restored on ${when(kept.created_at)}: the previous files are kept in ${kept.previous}.`
      : `Restored on ${when(kept.created_at)}: the previous database is kept as ${kept.previous}.`,
    button: `Keep the restored ${what}`,
    title: `Keep the restored ${what}?`,
    confirm: files
      ? `The folder ${kept.previous} (the files as they were before the restore) is deleted from the server. You cannot go back to them afterwards.`
      : `The database ${kept.previous} (the tables as they were before the restore) is deleted from the server. You cannot go back to them afterwards.`,
  };
}

/**
 * The command whose output an SFTP storage's host key field takes, for the host as typed
 * (`nas.example:2222` -> `ssh-keyscan -p 2222 nas.example`); placeholders until one is typed.
 */
export function keyscanCommand(hostField: string | null | undefined): string {
  const m = /^([A-Za-z0-9][A-Za-z0-9.-]*)(?::(\d{1,5}))?$/.exec((hostField ?? '').trim());
  if (!m) return 'ssh-keyscan -p PORT host';
  return m[2] && m[2] !== '22' ? `ssh-keyscan -p ${m[2]} ${m[1]}` : `ssh-keyscan ${m[1]}`;
}
