/**
 * Attempt limits of the firewall (spec `csf/{max-attempts|ssh-max|imap-max|pop-max|smt-max}`):
 * CSF's LF_FTPD, LF_SSHD, LF_IMAPD, LF_POP3D and LF_SMTPAUTH, carried out by fail2ban. Each
 * kind is one fail2ban jail of the panel's own: after `value` failed logins from one address
 * within `find_time` seconds, that address is banned from the kind's ports for `ban_time`
 * seconds. `value` 0 turns the kind's jail off. Read live from the server (the jail file the
 * agent wrote, and fail2ban's own answer), like the SSH settings.
 */
import { z } from 'zod';
import { normalizeCidr } from '../firewall/api';
import { defineResource } from '../../resources/define';
import { op } from '../../resources/agent/opDef';

/** The spec's path segment of each kind, and what it limits. */
export const ATTEMPT_KINDS = {
  'max-attempts': 'ftp',
  'ssh-max': 'ssh',
  'imap-max': 'imap',
  'pop-max': 'pop3',
  'smt-max': 'smtp',
} as const;
export type AttemptKind = keyof typeof ATTEMPT_KINDS;
export const attemptKind = z.enum(Object.keys(ATTEMPT_KINDS) as [AttemptKind, ...AttemptKind[]]);

/** The words the card shows for each kind. */
export const ATTEMPT_LABELS: Record<AttemptKind, { label: string; helper: string }> = {
  'max-attempts': { label: 'FTP', helper: 'Failed FTP logins (Pure-FTPd) before a ban' },
  'ssh-max': { label: 'SSH', helper: 'Failed SSH logins before a ban' },
  'imap-max': { label: 'IMAP', helper: 'Failed mail logins before IMAP is banned' },
  'pop-max': { label: 'POP3', helper: 'Failed mail logins before POP3 is banned' },
  'smt-max': { label: 'SMTP', helper: 'Failed SMTP AUTH logins (Postfix) before a ban' },
};

export const MAX_ATTEMPTS = 100;

/** One kind's limit; `value` 0 = off. Times in seconds. */
export const attemptLimitSchema = z.object({
  value: z
    .number()
    .int('Whole numbers only')
    .min(0, '0 (off) or more')
    .max(MAX_ATTEMPTS, `At most ${MAX_ATTEMPTS}`),
  /** How long a ban lasts: 1 minute to 30 days. */
  ban_time: z
    .number()
    .int('Whole seconds')
    .min(60, 'At least 60 seconds')
    .max(2_592_000, 'At most 30 days (2592000 seconds)'),
  /** The window in which the failures count: 1 minute to 1 day. */
  find_time: z
    .number()
    .int('Whole seconds')
    .min(60, 'At least 60 seconds')
    .max(86_400, 'At most 1 day (86400 seconds)'),
});
export type AttemptLimit = z.infer<typeof attemptLimitSchema>;

/** A kind the panel never set: off, with an hour's ban and window (CSF's LF_INTERVAL). */
export const DEFAULT_LIMIT: AttemptLimit = { value: 0, ban_time: 3600, find_time: 3600 };

/** What a GET answers: the limit, and whether fail2ban runs the jail now. */
export const attemptStateSchema = attemptLimitSchema.extend({
  kind: attemptKind,
  /** fail2ban runs this kind's jail (false when the value is 0 or fail2ban is stopped). */
  active: z.boolean(),
  /** Addresses banned by this kind's jail now. */
  banned: z.array(z.string()),
});
export type AttemptState = z.infer<typeof attemptStateSchema>;

const server = 'servers/{sid}/users/{uid}';

const actionsOf = <K extends AttemptKind>(kind: K) => ({
  [`read_${kind}`]: {
    method: 'GET' as const,
    path: `csf/${kind}/${server}`,
    guard: 'self' as const,
    summary: `The ${ATTEMPT_KINDS[kind]} attempt limit, read from the server's fail2ban`,
    response: attemptStateSchema,
  },
  [`change_${kind}`]: {
    method: 'PATCH' as const,
    path: `csf/${kind}/${server}`,
    guard: 'self' as const,
    summary: `Changes the ${ATTEMPT_KINDS[kind]} attempt limit: written, checked with \`fail2ban-client -t\`, reloaded`,
    body: attemptLimitSchema.partial(),
    response: attemptStateSchema,
  },
});

export const attemptlimits = defineResource({
  name: 'attemptlimits',
  label: 'Attempt limits',
  schema: attemptStateSchema,
  paths: {},
  ops: {},
  actions: {
    ...actionsOf('max-attempts'),
    ...actionsOf('ssh-max'),
    ...actionsOf('imap-max'),
    ...actionsOf('pop-max'),
    ...actionsOf('smt-max'),
  },
});

export const resources = { attemptlimits };

/**
 * The firewall's ignore list (`csf_ignore`, CSF's csf.ignore: addresses the login-failure
 * daemon never blocks), in the firewall's own normal spelling: fail2ban's `ignoreip`.
 */
export const ignoreList = z
  .array(
    z
      .string()
      .refine((ip) => normalizeCidr(ip) === ip, 'An address or CIDR block in its normal form'),
  )
  .max(5000);

export const ops = {
  /** Every kind at once, in ATTEMPT_KINDS' order: the panel's five reads share one. */
  'fail2ban.list': op(z.object({}), z.array(attemptStateSchema)),
  /** fail2ban's start and its check take seconds on a small server. */
  'fail2ban.set': op(
    z.object({ kind: attemptKind, changes: attemptLimitSchema.partial(), ignore: ignoreList }),
    attemptStateSchema,
    120_000,
  ),
  /** The ignore list changed: the jails are written again with it (when any jail is on). */
  'fail2ban.ignore': op(
    z.object({ ignore: ignoreList }),
    z.object({ applied: z.boolean() }),
    120_000,
  ),
};
