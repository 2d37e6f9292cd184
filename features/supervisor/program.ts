/**
 * A supervisor program as the panel writes it, and supervisorctl's status as it reads it: pure
 * helpers shared by the declaration (its checks), the agent (the file) and the tests.
 */

import { WRAPPER } from '../webapps/api';

/** Files and groups of the panel's programs carry this prefix; others are the admin's own. */
export const PREFIX = 'stackdeck-';
export const CONF_DIR = '/etc/supervisor/conf.d';
export const LOG_DIR = '/var/log/supervisor';

export const confPath = (name: string) => `${CONF_DIR}/${PREFIX}${name}.conf`;
export const logPath = (name: string, process: number) =>
  `${LOG_DIR}/${PREFIX}${name}_${String(process).padStart(2, '0')}.log`;

/**
 * Why a command cannot go into a program file, or null. supervisord reads the file as an ini:
 * a line break would start another key, and ` ;` or ` #` starts a comment that silently cuts
 * the command short.
 */
export function commandProblem(command: string): string | null {
  if (/[\r\n\0]/.test(command)) return 'The command must be one line';
  if (/\s[;#]/.test(command))
    return 'Supervisor reads " ;" and " #" as the start of a comment: put the command in a script';
  return null;
}

/** Why a directory is refused, or null: absolute, plain characters, no `..`. */
export function directoryProblem(directory: string): string | null {
  if (!directory.startsWith('/')) return 'An absolute path, starting with /';
  if (!/^[A-Za-z0-9._/@+-]+$/.test(directory)) return 'Letters, digits and . _ / @ + - only';
  if (directory.split('/').includes('..')) return 'No .. in the path';
  return null;
}

export interface Program {
  name: string;
  command: string;
  directory: string;
  user: string;
  numprocs: number;
  autostart: boolean;
  autorestart: boolean;
}

/** `%` is supervisor's interpolation (`%(ENV_HOME)s`): a literal one is written `%%`. */
const literal = (value: string) => value.replace(/%/g, '%%');

/**
 * The program runs through the limits wrapper (its user's processes and memory, nice 10);
 * supervisord splits the line into argv, the wrapper execs the command's own argv, so the
 * program keeps the pid supervisord signals.
 */
const LIMITED = `${WRAPPER} -- `;

/**
 * The program file. `stopasgroup` and `killasgroup` always: a stop reaches the children a
 * program forked, so none keeps its port (a failure users of other panels report). The
 * environment gives the user's own HOME and names, as a login would.
 */
export function renderProgram(p: Program, home: string): string {
  return [
    `; Written by Stackdeck: changes here are replaced when the job is saved or rebuilt.`,
    `[program:${PREFIX}${p.name}]`,
    `command=${LIMITED}${literal(p.command)}`,
    `directory=${p.directory}`,
    `user=${p.user}`,
    `environment=HOME="${home}",USER="${p.user}",LOGNAME="${p.user}"`,
    `numprocs=${p.numprocs}`,
    `process_name=%(program_name)s_%(process_num)02d`,
    `autostart=${p.autostart}`,
    `autorestart=${p.autorestart}`,
    'startsecs=1',
    'startretries=3',
    'stopsignal=TERM',
    'stopwaitsecs=30',
    'stopasgroup=true',
    'killasgroup=true',
    'redirect_stderr=true',
    `stdout_logfile=${LOG_DIR}/%(program_name)s_%(process_num)02d.log`,
    'stdout_logfile_maxbytes=10MB',
    'stdout_logfile_backups=3',
    '',
  ].join('\n');
}

/** The fields of a program file as written (a hand-edited one reads back as it is). */
export function parseProgram(name: string, text: string): Partial<Program> & { name: string } {
  const keys = new Map<string, string>();
  for (const line of text.split('\n')) {
    const m = /^([a-z_]+)\s*=\s*(.*)$/.exec(line.trim());
    if (m) keys.set(m[1]!, m[2]!);
  }
  const bool = (key: string) => (keys.has(key) ? keys.get(key) === 'true' : undefined);
  const command = keys.get('command');
  return {
    name,
    command:
      command === undefined
        ? undefined
        : (command.startsWith(LIMITED) ? command.slice(LIMITED.length) : command).replace(
            /%%/g,
            '%',
          ),
    directory: keys.get('directory'),
    user: keys.get('user'),
    numprocs: keys.has('numprocs') ? Number(keys.get('numprocs')) : undefined,
    autostart: bool('autostart'),
    autorestart: bool('autorestart'),
  };
}

export interface ProcessStatus {
  name: string;
  process: string;
  state: string;
  pid: number | null;
  uptime: number | null;
  description: string;
}

/** `1:02:03` or `2 days, 1:02:03` in seconds. */
function seconds(text: string): number | null {
  const m = /^(?:(\d+) days?, )?(\d+):(\d{2}):(\d{2})$/.exec(text.trim());
  if (!m) return null;
  return Number(m[1] ?? 0) * 86_400 + Number(m[2]) * 3600 + Number(m[3]) * 60 + Number(m[4]);
}

/**
 * `supervisorctl status` lines of the panel's programs:
 * `stackdeck-web:stackdeck-web_00   RUNNING   pid 12, uptime 0:01:02`.
 */
export function parseStatus(text: string): ProcessStatus[] {
  const out: ProcessStatus[] = [];
  for (const line of text.split('\n')) {
    const m = /^(\S+)\s+([A-Z]+)\s*(.*)$/.exec(line.trim());
    if (!m) continue;
    const [group, proc] = m[1]!.includes(':') ? m[1]!.split(':') : [m[1]!, m[1]!];
    if (!group!.startsWith(PREFIX)) continue;
    const rest = m[3]!.trim();
    const running = /^pid (\d+), uptime (.+)$/.exec(rest);
    out.push({
      name: group!.slice(PREFIX.length),
      process: proc!.startsWith(PREFIX) ? proc!.slice(PREFIX.length) : proc!,
      state: m[2]!,
      pid: running ? Number(running[1]) : null,
      uptime: running ? seconds(running[2]!) : null,
      description: running ? '' : rest,
    });
  }
  return out;
}
