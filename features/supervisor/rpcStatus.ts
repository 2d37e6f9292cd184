/**
 * supervisord's own answer to `supervisor.getAllProcessInfo` (XML-RPC, as Python's xmlrpc
 * module writes it) as the panel's process states: the agent asks it over supervisord's unix
 * socket with every report, which costs no process (supervisorctl is a Python program). Pure.
 */
import { PREFIX, type ProcessStatus } from './program';

const ENTITIES: Readonly<Record<string, string>> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
};
const decode = (text: string) =>
  text.replace(/&(amp|lt|gt|quot|apos);/g, (_m, name: string) => ENTITIES[name]!);

/** One `<struct>`'s members: strings and ints by name. */
function members(struct: string): Map<string, string> {
  const out = new Map<string, string>();
  const member =
    /<member>\s*<name>([^<]+)<\/name>\s*<value>\s*(?:<(string|int|i4|boolean)>([^<]*)<\/\2>|([^<]*))\s*<\/value>\s*<\/member>/g;
  for (const m of struct.matchAll(member)) out.set(m[1]!, decode(m[3] ?? m[4] ?? ''));
  return out;
}

/** The panel's programs' processes; other programs of the server are left out. */
export function parseProcessInfo(xml: string): ProcessStatus[] {
  if (/<fault>/.test(xml)) throw new Error('supervisord answered with a fault');
  const out: ProcessStatus[] = [];
  for (const [, struct] of xml.matchAll(/<struct>([\s\S]*?)<\/struct>/g)) {
    const info = members(struct!);
    const group = info.get('group') ?? '';
    const name = info.get('name') ?? '';
    if (!group.startsWith(PREFIX)) continue;
    const state = info.get('statename') ?? 'UNKNOWN';
    const running = state === 'RUNNING';
    const pid = Number(info.get('pid') ?? 0);
    out.push({
      name: group.slice(PREFIX.length),
      process: name.startsWith(PREFIX) ? name.slice(PREFIX.length) : name,
      state,
      pid: pid > 0 ? pid : null,
      uptime: running
        ? Math.max(0, Number(info.get('now') ?? 0) - Number(info.get('start') ?? 0))
        : null,
      description: running ? '' : (info.get('description') ?? ''),
    });
  }
  return out;
}

/** The request body of that call. */
export const PROCESS_INFO_CALL =
  "<?xml version='1.0'?><methodCall><methodName>supervisor.getAllProcessInfo</methodName><params></params></methodCall>";
