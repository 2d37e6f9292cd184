/**
 * Pure helpers for sshd's configuration: reading `sshd -T`, writing the panel's drop-in, and
 * making the drop-in win. sshd keeps the first value it reads of most keywords, and Debian 12's
 * sshd_config includes sshd_config.d/*.conf (in name order) at its top: 90-stackdeck.conf wins
 * over the rest of sshd_config, but would lose to an earlier drop-in (cloud-init's
 * 50-cloud-init.conf sets PasswordAuthentication) and to lines above the Include. So those
 * lines of our keywords are commented out (marked), and an sshd_config without the Include gets
 * it as its first directive. Port is different: every Port line adds a port, so every other
 * active Port line is commented out too. Match blocks (the admin's own rules) are left alone.
 */

export const DROP_IN = '/etc/ssh/sshd_config.d/90-stackdeck.conf';
export const MAIN_CONFIG = '/etc/ssh/sshd_config';
const INCLUDE_ALL = 'Include /etc/ssh/sshd_config.d/*.conf';
const MARK = '# stackdeck:';
/** The keywords the drop-in sets. */
const OURS = new Set([
  'port',
  'passwordauthentication',
  'kbdinteractiveauthentication',
  'challengeresponseauthentication',
  'permitrootlogin',
]);

const keywordOf = (line: string) => /^\s*([A-Za-z]+)\b/.exec(line)?.[1]?.toLowerCase();

/**
 * Comments out the lines of our keywords (only Port from index `portsOnlyFrom` on), until the
 * first Match line.
 */
function neutralize(lines: string[], portsOnlyFrom: number): string[] {
  let inMatch = false;
  return lines.map((line, i) => {
    const key = keywordOf(line);
    if (key === 'match') inMatch = true;
    if (inMatch || key === undefined || !OURS.has(key)) return line;
    if (i >= portsOnlyFrom && key !== 'port') return line;
    return `${MARK} ${line.trim()}  (set in ${DROP_IN})`;
  });
}

export interface EffectiveSshd {
  ports: number[];
  password_authentication: boolean;
  /** sshd's own word: yes, no, prohibit-password, forced-commands-only. */
  permit_root_login: string;
  kbd_interactive: boolean;
}

/** `sshd -T` prints one lower-case keyword and its value a line. */
export function parseSshdT(text: string): EffectiveSshd {
  const ports: number[] = [];
  const values = new Map<string, string>();
  for (const line of text.split('\n')) {
    const [key, ...rest] = line.trim().split(/\s+/);
    if (!key) continue;
    const value = rest.join(' ');
    if (key === 'port') {
      if (!ports.includes(Number(value))) ports.push(Number(value));
    } else if (!values.has(key)) values.set(key, value);
  }
  return {
    ports: ports.length > 0 ? ports : [22],
    password_authentication: (values.get('passwordauthentication') ?? 'yes') === 'yes',
    permit_root_login: values.get('permitrootlogin') ?? 'prohibit-password',
    kbd_interactive: (values.get('kbdinteractiveauthentication') ?? 'no') === 'yes',
  };
}

/** Root may log in unless sshd says no (keys only still counts as allowed). */
export function rootLoginAllowed(value: string): boolean {
  return value !== 'no';
}

export interface DropInSettings {
  port: number;
  password_authentication: boolean;
  permit_root_login: string;
}

export function dropInText(s: DropInSettings): string {
  if (!Number.isInteger(s.port) || s.port < 1 || s.port > 65535) throw new Error('bad port');
  if (
    !/^(yes|no|prohibit-password|without-password|forced-commands-only)$/.test(s.permit_root_login)
  )
    throw new Error('bad PermitRootLogin');
  const lines = [
    '# Written by the Stackdeck agent: the SSH settings of the panel. Changes here are',
    '# overwritten; change them in the panel. Conflicting lines elsewhere are commented out.',
    `Port ${s.port}`,
    `PasswordAuthentication ${s.password_authentication ? 'yes' : 'no'}`,
    // With PAM, keyboard-interactive asks for the same password: off too when passwords are.
    ...(s.password_authentication ? [] : ['KbdInteractiveAuthentication no']),
    `PermitRootLogin ${s.permit_root_login}`,
  ];
  return `${lines.join('\n')}\n`;
}

/**
 * sshd_config with the drop-ins included at its top (added when missing), our keywords above
 * that Include commented out, and every active Port line commented out. Idempotent.
 */
export function mainConfigText(text: string): string {
  const lines = text.split('\n');
  let include = lines.findIndex((l) => l.trim() === INCLUDE_ALL);
  if (include < 0) {
    const first = lines.findIndex((l) => l.trim() !== '' && !l.trim().startsWith('#'));
    include = first < 0 ? lines.length : first;
    lines.splice(include, 0, INCLUDE_ALL);
  }
  return neutralize(lines, include).join('\n');
}

/** Another drop-in: every line of our keywords commented out (it would win, or add a port). */
export function otherDropInText(text: string): string {
  return neutralize(text.split('\n'), Infinity).join('\n');
}

/** Local TCP ports in LISTEN state, from `ss -Hltn`. */
export function listeningPorts(ssOutput: string): Set<number> {
  const ports = new Set<number>();
  for (const line of ssOutput.split('\n')) {
    const local = line.trim().split(/\s+/)[3];
    const match = local ? /:(\d+)$/.exec(local) : null;
    if (match) ports.add(Number(match[1]));
  }
  return ports;
}
