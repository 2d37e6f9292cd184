/**
 * The panel's fail2ban jail file, written and read back: pure text, shared by the agent (which
 * writes and reads it) and the unit tests. One jail per kind of attempt limit; every setting
 * sits in the jail's own section, never in [DEFAULT], so the server's other jails keep theirs.
 */
import {
  ATTEMPT_KINDS,
  type AttemptKind,
  type AttemptLimit,
  DEFAULT_LIMIT,
  attemptLimitSchema,
} from './resource';

export const JAIL_FILE = '/etc/fail2ban/jail.d/stackdeck.conf';

export type AttemptLimits = Record<AttemptKind, AttemptLimit>;

/** The jail of a kind: `stackdeck-ssh`, `stackdeck-pop3`... */
export const jailOf = (kind: AttemptKind) => `stackdeck-${ATTEMPT_KINDS[kind]}`;

export const ALL_KINDS = Object.keys(ATTEMPT_KINDS) as AttemptKind[];

interface JailSource {
  filter: string;
  /** A systemd server: the journal entries of the program (by process name: on Debian the
   * unit names differ from fail2ban's defaults, ssh.service vs sshd.service). */
  journalmatch?: string;
  /** Elsewhere: the syslog file Debian's rsyslog writes the program's lines to. */
  logpath: string;
  ports: number[];
}

/**
 * IMAP and POP3 both log through dovecot, whose failure lines do not all name the protocol: the
 * two jails read the same lines (a failed mail login counts against both limits) and each bans
 * its own ports only, so each limit decides when its protocol closes.
 */
export const SOURCES: Record<AttemptKind, JailSource> = {
  'max-attempts': { filter: 'pure-ftpd', logpath: '/var/log/syslog', ports: [21, 990] },
  'ssh-max': {
    filter: 'sshd',
    journalmatch: '_COMM=sshd',
    logpath: '/var/log/auth.log',
    ports: [22],
  },
  'imap-max': { filter: 'dovecot', logpath: '/var/log/mail.log', ports: [143, 993] },
  'pop-max': { filter: 'dovecot', logpath: '/var/log/mail.log', ports: [110, 995] },
  'smt-max': { filter: 'postfix[mode=auth]', logpath: '/var/log/mail.log', ports: [25, 465, 587] },
};

export interface JailEnv {
  /** Read the systemd journal (`backend = systemd`), or poll the syslog files. */
  systemd: boolean;
  /** The ports sshd listens on now (the SSH settings may have moved it off 22). */
  sshPorts: number[];
  /** Never banned (`ignoreip`): the server's own loopback and the panel's addresses. */
  ignore: string[];
}

function jailText(kind: AttemptKind, limit: AttemptLimit, env: JailEnv): string[] {
  const source = SOURCES[kind];
  const ports = kind === 'ssh-max' && env.sshPorts.length ? env.sshPorts : source.ports;
  const filter =
    env.systemd && source.journalmatch
      ? `${source.filter}[journalmatch='${source.journalmatch}']`
      : source.filter;
  return [
    `[${jailOf(kind)}]`,
    `enabled = ${limit.value > 0 ? 'true' : 'false'}`,
    `filter = ${filter}`,
    `port = ${ports.join(',')}`,
    // Kept while the jail is off, so turning it back on keeps its times.
    `maxretry = ${Math.max(limit.value, 1)}`,
    `findtime = ${limit.find_time}`,
    `bantime = ${limit.ban_time}`,
    ...(env.systemd ? ['backend = systemd'] : ['backend = polling', `logpath = ${source.logpath}`]),
    // fail2ban's own table (inet f2b-table): the panel's firewall table is never touched.
    'banaction = nftables[type=multiport]',
    'ignoreself = true',
    `ignoreip = ${env.ignore.join(' ')}`,
    '',
  ];
}

/** The whole file for these limits. */
export function renderJails(limits: AttemptLimits, env: JailEnv): string {
  return [
    '# Written by Stackdeck: the attempt limits of the panel (Security page).',
    '# Changes made here are replaced on the next change from the panel.',
    '',
    "# Debian's own sshd jail (maxretry 5) would ban whatever the panel's SSH limit says:",
    '# stackdeck-ssh takes its place.',
    '[sshd]',
    'enabled = false',
    '',
    ...ALL_KINDS.flatMap((kind) => jailText(kind, limits[kind], env)),
  ].join('\n');
}

/** `[section]` -> key -> value of an INI text (comments and blank lines dropped). */
export function parseIni(text: string): Map<string, Map<string, string>> {
  const sections = new Map<string, Map<string, string>>();
  let current: Map<string, string> | undefined;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!line || line.startsWith('#') || line.startsWith(';')) continue;
    const section = /^\[([^\]]+)\]$/.exec(line);
    if (section) {
      current = new Map();
      sections.set(section[1]!.trim(), current);
      continue;
    }
    const pair = /^([A-Za-z_][\w.-]*)\s*[=:]\s*(.*)$/.exec(line);
    if (pair && current) current.set(pair[1]!.toLowerCase(), pair[2]!.trim());
  }
  return sections;
}

/**
 * The limits the file holds; a kind without a readable section is off with the default times
 * (the file is absent before the panel's first change). A value out of range (an edit by hand)
 * reads as the default rather than a limit the panel could not show.
 */
export function parseJails(text: string | null): AttemptLimits {
  const sections = parseIni(text ?? '');
  const limits = {} as AttemptLimits;
  for (const kind of ALL_KINDS) {
    const section = sections.get(jailOf(kind));
    const num = (key: string) => Number(section?.get(key) ?? NaN);
    const enabled = section?.get('enabled')?.toLowerCase() === 'true';
    const parsed = attemptLimitSchema.safeParse({
      value: enabled ? num('maxretry') : 0,
      ban_time: num('bantime'),
      find_time: num('findtime'),
    });
    limits[kind] = parsed.success ? parsed.data : { ...DEFAULT_LIMIT };
  }
  return limits;
}

/** The jails in `fail2ban-client status`. */
export function jailsIn(status: string): string[] {
  const line = /Jail list:\s*(.*)$/m.exec(status);
  return line
    ? line[1]!
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
    : [];
}

/**
 * `fail2ban-client banned`: every jail that runs, with its banned addresses, printed as Python's
 * list of one-key dicts (`[{'stackdeck-ssh': ['127.0.0.5']}, {'stackdeck-ftp': []}]`); null for
 * any other text, so an unknown answer is never read as "no jail runs".
 */
export function bannedByJail(text: string): Map<string, string[]> | null {
  const trimmed = text.trim();
  if (!/^\[.*\]$/s.test(trimmed)) return null;
  const jails = new Map<string, string[]>();
  const entry = /\{'([^']+)': \[([^\]]*)\]\}/g;
  let rest = trimmed.slice(1, -1);
  for (const m of trimmed.matchAll(entry)) {
    jails.set(
      m[1]!,
      [...m[2]!.matchAll(/'([^']+)'/g)].map((a) => a[1]!),
    );
    rest = rest.replace(m[0], '');
  }
  return /^[\s,]*$/.test(rest) ? jails : null;
}
