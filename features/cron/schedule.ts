/**
 * Cron schedules: the check of an expression (five fields or an @ preset, as Debian's cron
 * reads them) and its meaning in words. Pure: the form, the server and the agent share it.
 */

interface FieldSpec {
  name: string;
  min: number;
  max: number;
  names?: readonly string[];
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const DAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];
const FIELDS: readonly FieldSpec[] = [
  { name: 'minute', min: 0, max: 59 },
  { name: 'hour', min: 0, max: 23 },
  { name: 'day of month', min: 1, max: 31 },
  { name: 'month', min: 1, max: 12, names: MONTHS },
  { name: 'day of week', min: 0, max: 7, names: DAYS },
];

/** The @ forms cron knows, with what they mean. */
export const PRESETS: Readonly<Record<string, string>> = {
  '@reboot': 'When the server starts',
  '@yearly': 'Every year on 1 January at 00:00',
  '@annually': 'Every year on 1 January at 00:00',
  '@monthly': 'On the 1st of every month at 00:00',
  '@weekly': 'Every Sunday at 00:00',
  '@daily': 'Every day at 00:00',
  '@midnight': 'Every day at 00:00',
  '@hourly': 'Every hour, on the hour',
};

/** The choices of the form: a preset, or the user's own expression. */
export const SCHEDULE_CHOICES: readonly { label: string; value: string }[] = [
  { label: 'Every minute', value: '* * * * *' },
  { label: 'Every 5 minutes', value: '*/5 * * * *' },
  { label: 'Every 15 minutes', value: '*/15 * * * *' },
  { label: 'Every hour', value: '@hourly' },
  { label: 'Every day at midnight', value: '@daily' },
  { label: 'Every Sunday at midnight', value: '@weekly' },
  { label: 'The 1st of every month', value: '@monthly' },
  { label: 'When the server starts', value: '@reboot' },
];

function valueOf(text: string, spec: FieldSpec): number | null {
  const named = spec.names?.indexOf(text.toLowerCase()) ?? -1;
  if (named >= 0) return spec.names === MONTHS ? named + 1 : named;
  if (!/^\d{1,2}$/.test(text)) return null;
  const n = Number(text);
  return n >= spec.min && n <= spec.max ? n : null;
}

/** Why one field is wrong, or null when cron reads it. */
function fieldProblem(text: string, spec: FieldSpec): string | null {
  for (const part of text.split(',')) {
    const [range = '', step, extra] = part.split('/');
    if (extra !== undefined) return `${spec.name}: "${part}" has two steps`;
    if (step !== undefined && !/^[1-9]\d{0,1}$/.test(step))
      return `${spec.name}: the step of "${part}" must be a number from 1`;
    if (range === '*') continue;
    const [from = '', to, more] = range.split('-');
    if (more !== undefined) return `${spec.name}: "${part}" is not a range`;
    const a = valueOf(from, spec);
    if (a === null) return `${spec.name}: "${from}" is not between ${spec.min} and ${spec.max}`;
    if (to !== undefined) {
      const b = valueOf(to, spec);
      if (b === null) return `${spec.name}: "${to}" is not between ${spec.min} and ${spec.max}`;
      if (b < a) return `${spec.name}: the range "${range}" runs backwards`;
    } else if (step !== undefined) {
      return `${spec.name}: a step needs a range or * ("${part}")`;
    }
  }
  return null;
}

/** Why the expression is not a schedule cron runs, or null when it is. */
export function scheduleProblem(expression: string): string | null {
  const text = expression.trim();
  if (!text) return 'Give a schedule';
  if (text.startsWith('@')) return text in PRESETS ? null : `Unknown schedule ${text}`;
  const fields = text.split(/\s+/);
  if (fields.length !== 5)
    return 'A schedule has five fields: minute, hour, day of month, month, day of week';
  for (const [i, field] of fields.entries()) {
    const problem = fieldProblem(field, FIELDS[i]!);
    if (problem) return problem;
  }
  return null;
}

const pad = (n: string) => n.padStart(2, '0');
const isNumber = (s: string) => /^\d+$/.test(s);
const DAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTH_NAMES = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

function dayName(text: string): string {
  const i = DAYS.indexOf(text.toLowerCase());
  return DAY_NAMES[i >= 0 ? i : Number(text) % 7] ?? text;
}

function monthName(text: string): string {
  const i = MONTHS.indexOf(text.toLowerCase());
  return MONTH_NAMES[i >= 0 ? i : Number(text) - 1] ?? text;
}

/** One field in words where it is not a plain number: `every 5th`, `1-5`, `1,15`. */
function fieldWords(text: string, unit: string, name: (s: string) => string = (s) => s): string {
  const every = /^\*\/(\d+)$/.exec(text);
  if (every) return `every ${every[1]} ${unit}s`;
  return text
    .split(',')
    .map((p) => (p.includes('-') ? p.split('-').map(name).join(' to ') : name(p)))
    .join(', ');
}

/** The schedule in words, for the list and the form: "Every day at 03:30". */
export function describeSchedule(expression: string): string {
  const text = expression.trim();
  if (scheduleProblem(text)) return 'Not a valid schedule';
  if (text.startsWith('@')) return PRESETS[text]!;
  const [min = '*', hour = '*', dom = '*', month = '*', dow = '*'] = text.split(/\s+/);
  let when: string;
  if (min === '*' && hour === '*') when = 'Every minute';
  else if (/^\*\/\d+$/.test(min) && hour === '*') when = `Every ${min.slice(2)} minutes`;
  else if (isNumber(min) && hour === '*') when = `Every hour at minute ${Number(min)}`;
  else if (isNumber(min) && isNumber(hour)) when = `At ${pad(hour)}:${pad(min)}`;
  else if (isNumber(min) && /^\*\/\d+$/.test(hour))
    when = `Every ${hour.slice(2)} hours at minute ${Number(min)}`;
  else
    when = `At minute ${fieldWords(min, 'minute')} of hour ${fieldWords(hour, 'hour')}`.replace(
      /of hour \*$/,
      'of every hour',
    );
  const parts = [when];
  if (dom !== '*') parts.push(`on day ${fieldWords(dom, 'day')} of the month`);
  if (month !== '*') parts.push(`in ${fieldWords(month, 'month', monthName)}`);
  if (dow !== '*') parts.push(`on ${fieldWords(dow, 'day', dayName)}`);
  if (dom === '*' && dow === '*' && isNumber(hour)) parts.push('every day');
  return parts.join(' ');
}
