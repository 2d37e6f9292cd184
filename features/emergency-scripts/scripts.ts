/**
 * The 911 library (spec "common script tool"): fixed, named procedures the agent implements as
 * ops. Nothing an admin types reaches a shell: a run names a script of this list, the servers,
 * and parameters each script allows from fixed choices. Shared by the declaration, the panel,
 * the agent and the page.
 */
import { z } from 'zod';

export const SCRIPT_IDS = [
  'restart-web-stack',
  'free-disk',
  'unlock-package-manager',
  'restart-database',
  'disk-usage',
] as const;
export type ScriptId = (typeof SCRIPT_IDS)[number];

/** Days of rotated logs and journal kept by free-disk. */
export const KEEP_DAYS = [1, 3, 7, 14, 30] as const;
/** Seconds unlock-package-manager waits for a running apt or dpkg to end by itself. */
export const WAIT_SECONDS = [0, 30, 60, 120, 300] as const;

const oneOf = <T extends readonly number[]>(values: T, words: string) =>
  z.coerce
    .number()
    .int()
    .refine((v) => values.includes(v), `${words}: one of ${values.join(', ')}`);

/** Every parameter any script takes; which script takes which is SCRIPT_PARAMS. */
export const scriptParams = z
  .object({
    keep_days: oneOf(KEEP_DAYS, 'Days kept').optional(),
    wait_seconds: oneOf(WAIT_SECONDS, 'Seconds to wait').optional(),
    kill_stale: z.boolean().optional(),
  })
  .strict();
export type ScriptParams = z.infer<typeof scriptParams>;
export type ScriptParamName = keyof ScriptParams;

export interface ScriptParamInfo {
  name: ScriptParamName;
  label: string;
  kind: 'choice' | 'boolean';
  choices: number[];
  default: number | boolean;
  help: string;
}

export interface ScriptInfo {
  id: ScriptId;
  name: string;
  description: string;
  /** What it may interrupt, shown before running it. */
  impact: string;
  params: ScriptParamInfo[];
}

export const SCRIPTS: readonly ScriptInfo[] = [
  {
    id: 'restart-web-stack',
    name: 'Restart the web stack',
    description:
      'Checks the configuration of nginx, Apache and every PHP-FPM, then restarts each one installed (a broken configuration is reported and that service left as it runs).',
    impact: 'Sites stop answering for a second or two while each service restarts.',
    params: [],
  },
  {
    id: 'free-disk',
    name: 'Free disk space',
    description:
      "Empties apt's package cache, vacuums the systemd journal and removes rotated logs older than the days kept; reports the space each step freed.",
    impact: 'Old rotated logs and journal entries are gone for good.',
    params: [
      {
        name: 'keep_days',
        label: 'Days of old logs kept',
        kind: 'choice',
        choices: [...KEEP_DAYS],
        default: 7,
        help: 'Rotated logs and journal entries younger than this stay.',
      },
    ],
  },
  {
    id: 'unlock-package-manager',
    name: 'Unlock a stuck package manager',
    description:
      "Waits for apt or dpkg holding the package locks to end; with 'stop stale holders' it then stops them (TERM, then KILL). Lock files are never deleted. Then finishes interrupted installs with dpkg --configure -a and checks with apt-get check.",
    impact: 'A stopped upgrade is finished by dpkg --configure -a; packages may be configured.',
    params: [
      {
        name: 'wait_seconds',
        label: 'Seconds to wait for a running apt or dpkg',
        kind: 'choice',
        choices: [...WAIT_SECONDS],
        default: 60,
        help: 'A holder still running after this is stopped only if stale holders are stopped.',
      },
      {
        name: 'kill_stale',
        label: 'Stop stale holders',
        kind: 'boolean',
        choices: [],
        default: false,
        help: 'Stops an apt, apt-get, dpkg or unattended-upgrade still holding a lock after the wait.',
      },
    ],
  },
  {
    id: 'restart-database',
    name: 'Restart the database',
    description:
      'Restarts MariaDB (or MySQL) and waits until it answers a ping; works while the agent or the web stack is in trouble.',
    impact: 'Database connections drop; sites using it fail for a few seconds.',
    params: [],
  },
  {
    id: 'disk-usage',
    name: 'Show what eats disk',
    description:
      "Each filesystem's use, then the largest folders under /var, /home, /tmp, /root, /opt, /srv and /usr, and the sizes of the package cache and the journal. Changes nothing.",
    impact: 'None: it only reads.',
    params: [],
  },
];

export const scriptInfo = (id: ScriptId): ScriptInfo => {
  const found = SCRIPTS.find((s) => s.id === id);
  if (!found) throw new Error(`unknown script ${id}`);
  return found;
};

/** The parameters a script takes, defaults filled: what its op gets. */
export function paramsFor(id: ScriptId, given: ScriptParams): ScriptParams {
  const out: Record<string, number | boolean> = {};
  for (const p of scriptInfo(id).params) out[p.name] = given[p.name] ?? p.default;
  return out as ScriptParams;
}

/** A parameter given that the script does not take, for the field error; null when none. */
export function foreignParam(id: ScriptId, given: ScriptParams): ScriptParamName | null {
  const allowed = new Set(scriptInfo(id).params.map((p) => p.name));
  const extra = (Object.keys(given) as ScriptParamName[]).find(
    (k) => given[k] !== undefined && !allowed.has(k),
  );
  return extra ?? null;
}

/** The agent op of each script. */
export const SCRIPT_OPS = {
  'restart-web-stack': 'emergency.restart-web-stack',
  'free-disk': 'emergency.free-disk',
  'unlock-package-manager': 'emergency.unlock-package-manager',
  'restart-database': 'emergency.restart-database',
  'disk-usage': 'emergency.disk-usage',
} as const satisfies Record<ScriptId, string>;
