/**
 * A Sieve vacation script (RFC 5230), pure. Every value sits in a quoted string: `"` and `\`
 * are escaped (RFC 5228 2.4.2), the subject is one line; the body's line breaks are CRLF, as
 * Sieve wants inside a string.
 */

export interface VacationSpec {
  subject: string;
  body: string;
  starts: string | null;
  ends: string | null;
  days: number;
}

export function sieveString(text: string): string {
  return `"${text.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

export function renderVacation(spec: VacationSpec, addresses: readonly string[]): string {
  const subject = spec.subject.replace(/[\r\n\0]+/g, ' ');
  const body = spec.body.replace(/\0/g, '').replace(/\r?\n/g, '\r\n');
  const tests: string[] = [];
  if (spec.starts && DATE.test(spec.starts))
    tests.push(`currentdate :value "ge" "date" ${sieveString(spec.starts)}`);
  if (spec.ends && DATE.test(spec.ends))
    tests.push(`currentdate :value "le" "date" ${sieveString(spec.ends)}`);
  const action =
    `vacation :days ${Math.trunc(spec.days)} :subject ${sieveString(subject)}` +
    ` :addresses [${addresses.map(sieveString).join(', ')}] ${sieveString(body)};`;
  const require = tests.length ? '["vacation", "date", "relational"]' : '["vacation"]';
  if (!tests.length) return `require ${require};\n${action}\n`;
  return `require ${require};\nif allof(${tests.join(', ')}) {\n  ${action}\n}\n`;
}
