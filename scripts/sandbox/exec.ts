import { MARKER, markerValue } from './paths';

/** PATH of a root login on Debian, so commands inside find /usr/sbin tools. */
export const GUEST_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

const USER = /^[a-z_][a-z0-9_-]*\$?$/i;

/**
 * argv for nsenter: join every namespace of the sandbox's init, take its root and cwd, then
 * run argv there, as root or, through runuser (util-linux, inside the sandbox's root, so with
 * the sandbox's own passwd and PAM), as user. --pid makes nsenter fork, so the command is a
 * process of the sandbox and dies with it.
 */
export function nsenterArgs(initPid: number, argv: readonly string[], user?: string): string[] {
  if (argv.length === 0) throw new Error('exec needs a command');
  if (user !== undefined && !USER.test(user))
    throw new Error(`not a user name: ${JSON.stringify(user)}`);
  return [
    '--target',
    String(initPid),
    '--mount',
    '--uts',
    '--ipc',
    '--net',
    '--pid',
    '--root',
    '--wd',
    '--',
    ...(user !== undefined && user !== 'root' ? ['runuser', '-u', user, '--'] : []),
    ...argv,
  ];
}

/**
 * A fresh environment, as a login would have: nothing of the caller's (npm's, vitest's) leaks
 * in. The marker lets stop find a command that outlived its caller.
 */
export function guestEnv(id: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    PATH: GUEST_PATH,
    HOME: '/root',
    USER: 'root',
    LOGNAME: 'root',
    SHELL: '/bin/bash',
    LANG: 'C.UTF-8',
    [MARKER]: markerValue(id),
    ...extra,
  };
}
