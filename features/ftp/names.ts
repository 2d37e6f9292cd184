/**
 * The rules of FTP accounts shared by the declaration, the pages and the agent: user names, the
 * folder inside the app, and Pure-FTPd's passwd lines.
 */

/** A login: lower-case, starting with a letter, 3 to 32 characters. */
export const FTP_USERNAME = /^[a-z][a-z0-9_.-]{2,31}$/;

/** The app's own folder. */
export const ROOT_DIRECTORY = '.';

/** One folder name: no leading dot (so no `..`, no hidden folders), no slash. */
const SEGMENT = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,63}$/;

/** `/public//uploads/` -> `public/uploads`; empty -> `.`. */
export function normalizeDirectory(value: string): string {
  const parts = value.split('/').filter((p) => p !== '' && p !== '.');
  return parts.length ? parts.join('/') : ROOT_DIRECTORY;
}

/** Why a (normalised) folder is refused, or null. */
export function directoryProblem(value: string): string | null {
  if (value === ROOT_DIRECTORY) return null;
  const parts = value.split('/');
  if (parts.some((p) => p === '..')) return "The folder must stay inside the app's folder (no ..)";
  if (parts.length > 8) return 'At most 8 folders deep';
  if (!parts.every((p) => SEGMENT.test(p)))
    return 'Folder names of letters, digits, _ . and -, not starting with a dot';
  return null;
}

/** Whether folder `inner` is `outer` or inside it (both normalised, relative to the app). */
export function isWithin(inner: string, outer: string): boolean {
  if (outer === ROOT_DIRECTORY) return true;
  return inner === outer || inner.startsWith(`${outer}/`);
}

/** What marks the panel's lines in Pure-FTPd's passwd file (its comment field). */
export const marker = (id: number) => `stackdeck-${id}`;

/** A line of pure-ftpd's passwd file (pure-pw(8)): the fields the panel reads and writes. */
export interface FtpLine {
  username: string;
  hash: string;
  uid: number;
  gid: number;
  gecos: string;
  /** As written: a chrooted home ends in `/./`. */
  home: string;
  /** The fields after the home (bandwidth, quotas, addresses...), kept as they are. */
  rest: string[];
}

export function parseFtpPasswd(text: string): FtpLine[] {
  return text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((line) => {
      const [username = '', hash = '', uid = '', gid = '', gecos = '', home = '', ...rest] =
        line.split(':');
      return { username, hash, uid: Number(uid), gid: Number(gid), gecos, home, rest };
    });
}

/** 18 fields, as `pure-pw useradd` writes them. */
export function renderFtpPasswd(lines: readonly FtpLine[]): string {
  return lines
    .map((l) => {
      const rest = [...l.rest, ...Array<string>(12).fill('')].slice(0, Math.max(12, l.rest.length));
      return [l.username, l.hash, l.uid, l.gid, l.gecos, l.home, ...rest].join(':');
    })
    .map((l) => `${l}\n`)
    .join('');
}

/** The chrooted home of a folder, as pure-pw writes it (`-d`): the login cannot leave it. */
export const chrootHome = (dir: string) => `${dir.replace(/\/+$/, '')}/./`;

/** The folder of a home as written (without the chroot mark). */
export const homeDir = (home: string) => home.replace(/\/\.\/?$/, '').replace(/\/+$/, '');
