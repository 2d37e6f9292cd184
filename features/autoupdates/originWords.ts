/**
 * unattended-upgrades' origin patterns (`origin=Debian,codename=${distro_codename}-security,
 * label=Debian-Security`) in words a person reads ("Debian security updates"). Pure: the card
 * shows the server's allowed origins with it.
 */

/** The short keys apt accepts, by their long names. */
const LONG_KEY: Readonly<Record<string, string>> = {
  o: 'origin',
  a: 'archive',
  suite: 'archive',
  n: 'codename',
  l: 'label',
  c: 'component',
};

/** What a suite's suffix holds. */
const SUITE_KINDS: readonly (readonly [RegExp, string])[] = [
  [/-security$/, 'security updates'],
  [/-proposed-updates$/, 'proposed updates'],
  [/-updates$/, 'stable updates'],
  [/-backports$/, 'backports'],
];

function fieldsOf(pattern: string): Map<string, string> {
  const fields = new Map<string, string>();
  for (const part of pattern.split(',')) {
    const [key, ...rest] = part.split('=');
    const name = key!.trim().toLowerCase();
    if (name) fields.set(LONG_KEY[name] ?? name, rest.join('=').trim());
  }
  return fields;
}

export function originInWords(pattern: string): string {
  const fields = fieldsOf(pattern);
  const origin = fields.get('origin') || 'Any origin';
  const suite = fields.get('codename') ?? fields.get('archive') ?? '';
  const found = SUITE_KINDS.find(([suffix]) => suffix.test(suite));
  const security = fields.get('label') === 'Debian-Security';
  const kind = security
    ? 'security updates'
    : found
      ? found[1]
      : suite
        ? 'point releases'
        : 'packages';
  const release = found ? suite.replace(found[0], '') : suite;
  const parts = [`${origin} ${kind}`];
  // `${distro_codename}` is the server's own release: the words need not say so.
  if (release && !release.includes('${')) parts.push(`of ${release}`);
  const component = fields.get('component');
  if (component) parts.push(`(${component})`);
  const site = fields.get('site');
  if (site) parts.push(`from ${site}`);
  return parts.join(' ');
}
