/**
 * The apt configuration of automatic updates, written and read back: pure text, shared by the
 * agent and the unit tests.
 */
import type { AutoUpdates } from './resource';

export const PERIODIC_FILE = '/etc/apt/apt.conf.d/20auto-upgrades';
/** Sorted after Debian's 50unattended-upgrades, so its `#clear` drops the stock patterns. */
export const ORIGINS_FILE = '/etc/apt/apt.conf.d/52stackdeck-unattended-upgrades';

/** Debian-Security alone: what "security" must mean (the stock list also takes point releases). */
export const SECURITY_PATTERN =
  'origin=Debian,codename=${distro_codename}-security,label=Debian-Security';
/** Point releases and the -updates suite: the rest of Debian's updates. */
export const SOFTWARE_PATTERNS = [
  'origin=Debian,codename=${distro_codename},label=Debian',
  'origin=Debian,codename=${distro_codename}-updates,label=Debian',
];

/** The patterns for these settings, in the order written. */
export function patternsFor(s: AutoUpdates): string[] {
  return [
    ...(s.security_update ? [SECURITY_PATTERN] : []),
    ...(s.software_update ? SOFTWARE_PATTERNS : []),
  ];
}

export function periodicText(s: AutoUpdates): string {
  const on = s.security_update || s.software_update;
  return [
    '// Written by Stackdeck (automatic updates of the panel).',
    'APT::Periodic::Update-Package-Lists "1";',
    `APT::Periodic::Unattended-Upgrade "${on ? '1' : '0'}";`,
    '',
  ].join('\n');
}

export function originsText(s: AutoUpdates): string {
  return [
    '// Written by Stackdeck (automatic updates of the panel): apt appends lists across files,',
    '// so the stock ones are cleared first and only what the panel asked for is allowed.',
    '#clear Unattended-Upgrade::Origins-Pattern;',
    '#clear Unattended-Upgrade::Allowed-Origins;',
    'Unattended-Upgrade::Origins-Pattern {',
    ...patternsFor(s).map((p) => `        "${p}";`),
    '};',
    '',
  ].join('\n');
}

export interface AptView {
  /** APT::Periodic::Unattended-Upgrade (unset: "0", as apt's daily job reads it). */
  periodic: string;
  /** Unattended-Upgrade::Origins-Pattern and the older Allowed-Origins, as apt lists them. */
  origins: string[];
}

/** The parts of `apt-config dump` that decide what unattended-upgrade installs. */
export function parseAptDump(dump: string): AptView {
  let periodic = '0';
  const origins: string[] = [];
  for (const line of dump.split('\n')) {
    const m = /^(\S+?)(::)? "(.*)";$/.exec(line.trim());
    if (!m) continue;
    const [, key, list, value] = m;
    if (key === 'APT::Periodic::Unattended-Upgrade' && !list) periodic = value!;
    if (
      list &&
      (key === 'Unattended-Upgrade::Origins-Pattern' ||
        key === 'Unattended-Upgrade::Allowed-Origins')
    )
      origins.push(value!);
  }
  return { periodic, origins };
}

const fields = (pattern: string) =>
  new Map(
    pattern.split(',').map((part) => {
      const [k, ...v] = part.split('=');
      return [k!.trim(), v.join('=').trim()] as const;
    }),
  );

/** A pattern of Debian's security archive. */
const isSecurity = (p: string) => {
  const f = fields(p);
  return (
    (f.get('label') ?? f.get('l')) === 'Debian-Security' ||
    /-security$/.test(f.get('codename') ?? f.get('n') ?? '')
  );
};

/** A pattern of Debian's main archive (point releases) or its -updates suite. */
const isSoftware = (p: string) => {
  const f = fields(p);
  return (
    (f.get('origin') ?? f.get('o')) === 'Debian' &&
    !isSecurity(p) &&
    /^\$\{distro_codename\}(-updates)?$/.test(f.get('codename') ?? f.get('n') ?? '')
  );
};

/** The settings apt's view amounts to: off unless the periodic run is on. */
export function settingsOf(view: AptView): AutoUpdates {
  const on = view.periodic !== '0' && view.periodic !== '';
  return {
    security_update: on && view.origins.some(isSecurity),
    software_update: on && view.origins.some(isSoftware),
  };
}

/** The origins unattended-upgrade's dry run allows ("Allowed origins are: a, b"), or null. */
export function allowedOrigins(output: string): string[] | null {
  const m = /^Allowed origins are: ?(.*)$/m.exec(output);
  if (!m) return null;
  return m[1]!
    .split(', ')
    .map((s) => s.trim())
    .filter(Boolean);
}

/** The patterns as the dry run prints them, for the server's release name. */
export const expand = (patterns: string[], codename: string) =>
  patterns.map((p) => p.replaceAll('${distro_codename}', codename));
