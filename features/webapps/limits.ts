/**
 * Per-app limits (issue 22, finding 1): what a cron job, supervisor program or deployment
 * script of an app's system user may start. Pure: the schema the panel validates with, the
 * files the agent writes and the wrapper every such job runs through, shared with the tests.
 *
 * The kernel's unit is the system user (RLIMIT_NPROC counts a uid's tasks; every job of an app
 * runs as its user, and a user can signal all its own processes anyway), so an app's limits
 * are applied to its user; a user with several apps gets the largest of their own settings.
 */
import { z } from 'zod';

/** 256 tasks: a busy PHP-FPM pool, a Node.js app's threads and a deploy's npm fit; a fork bomb does not. */
export const DEFAULT_LIMITS = { processes: 256, memory_mb: 1024 } as const;

export const appLimits = z.object({
  /** Tasks (processes and threads) the app's user may have while a job of it forks. */
  processes: z.coerce
    .number()
    .int('A whole number')
    .min(16, 'At least 16')
    .max(16_384, 'At most 16384'),
  /** Memory one process of a job may allocate (its data segment: heap and private maps), MiB. */
  memory_mb: z.coerce
    .number()
    .int('A whole number')
    .min(64, 'At least 64 MiB')
    .max(65_536, 'At most 65536 MiB'),
});
export type AppLimits = z.infer<typeof appLimits>;

/** The setting as the API shows it: the app's own or the defaults, and what its user gets. */
export const appLimitsState = appLimits.extend({
  /** The defaults apply: the app has no setting of its own. */
  defaults: z.boolean(),
  /** What the app's system user runs under: the largest setting of its apps. */
  user_limits: appLimits,
  sys_user: z.string(),
});

/**
 * The limits of a user with these apps' settings (null: an app without one): the largest
 * setting of its apps, the defaults when none has one. An app on the defaults does not count,
 * so adding one never changes what its user's jobs run under.
 */
export function userLimits(settings: readonly (AppLimits | null)[]): AppLimits {
  const own = settings.filter((s): s is AppLimits => s !== null);
  const all = own.length ? own : [DEFAULT_LIMITS];
  return {
    processes: Math.max(...all.map((s) => s.processes)),
    memory_mb: Math.max(...all.map((s) => s.memory_mb)),
  };
}

/** The wrapper every job of the panel runs through, installed by the agent (root's, 0755). */
export const WRAPPER = '/usr/local/lib/stackdeck/run-limited';
/**
 * Each user's limits as the wrapper reads them (root's files, 0644: `key=digits` lines); not
 * under /etc/stackdeck, which is root's alone (the agent's secrets).
 */
export const LIMITS_DIR = '/etc/stackdeck-limits';
/** pam_limits' file for the user: its logins, `su`/`runuser` and cron's own lines get them too. */
export const pamLimitsPath = (user: string) => `/etc/security/limits.d/stackdeck-${user}.conf`;

/** argv running a program through the wrapper: the program and its arguments stay as they are. */
export const limitedArgv = (file: string, args: readonly string[]): [string, string[]] => [
  WRAPPER,
  ['--', file, ...args],
];

export const renderLimitsConf = (limits: AppLimits) =>
  `# Written by Stackdeck: the app's limits page changes it.\nprocesses=${limits.processes}\nmemory_mb=${limits.memory_mb}\n`;

/** Hard and soft: a job cannot raise its own limit back. */
export const renderPamLimits = (user: string, limits: AppLimits) =>
  [
    `# Written by Stackdeck: the app's limits page changes it.`,
    `${user} soft nproc ${limits.processes}`,
    `${user} hard nproc ${limits.processes}`,
    '',
  ].join('\n');

/**
 * The wrapper (POSIX sh). It takes its limits from its own user's file (the kernel's uid, never
 * an argument, so no job picks another user's), sets them hard on itself with prlimit (a job
 * cannot raise them; a lower hard limit already there, pam_limits', is kept, and any other
 * failure stops the job) and execs the program at nice 10, so the server's services and its
 * web pages go first; the program keeps the wrapper's pid (supervisor's signals reach it).
 * `-c COMMAND` is cron's SHELL form: the command runs with /bin/sh exactly as written.
 */
export const WRAPPER_SCRIPT = `#!/bin/sh
# Written by the Stackdeck agent: the panel's cron jobs, supervisor programs and deployment
# scripts run through it, under their system user's limits. Changes here are replaced.
# Usage: run-limited -c COMMAND | run-limited -- PROGRAM [ARG...]
user=$(/usr/bin/id -un) || exit 126
processes=${DEFAULT_LIMITS.processes}
memory_mb=${DEFAULT_LIMITS.memory_mb}
conf=${LIMITS_DIR}/$user.conf
if [ -r "$conf" ]; then
  while IFS='=' read -r key value; do
    case $value in '' | *[!0-9]*) continue ;; esac
    case $key in
      processes) processes=$value ;;
      memory_mb) memory_mb=$value ;;
    esac
  done <"$conf"
fi
case \${1:-} in
  -c) [ $# -eq 2 ] || { echo 'run-limited: -c takes one command' >&2; exit 126; }
      set -- /bin/sh -c "$2" ;;
  --) shift ;;
  *) echo 'usage: run-limited -c COMMAND | run-limited -- PROGRAM [ARG...]' >&2; exit 126 ;;
esac
[ $# -gt 0 ] || exit 126
limit() {
  /usr/bin/prlimit --pid $$ "--$2=$3:$3" 2>/dev/null && return
  /usr/bin/awk -v name="Max $1 " -v max="$3" 'index($0, name) == 1 && $(NF - 1) != "unlimited" && $(NF - 1) + 0 <= max + 0 { ok = 1 } END { exit !ok }' /proc/$$/limits && return
  echo "run-limited: cannot limit $1" >&2
  exit 126
}
limit processes nproc "$processes"
limit 'data size' data $((memory_mb * 1048576))
exec /usr/bin/nice -n 10 "$@"
`;
