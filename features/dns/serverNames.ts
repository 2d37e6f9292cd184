import { fieldError } from '../../server/http/errors';

/** The relative name shown for an absolute one: `@` for the zone itself. */
export function relativeName(fqdn: string, zone: string): string {
  if (fqdn === zone) return '@';
  return fqdn.endsWith(`.${zone}`) ? fqdn.slice(0, -(zone.length + 1)) : fqdn;
}

/** `@`, `www`, `www.example.com` or `www.example.com.` in zone example.com -> `www.example.com`. */
export function absoluteName(name: string, zone: string): string {
  if (name === '@') return zone;
  if (name.endsWith('.')) {
    const fqdn = name.slice(0, -1);
    if (fqdn !== zone && !fqdn.endsWith(`.${zone}`))
      throw fieldError('name', `The name must be inside ${zone}`);
    return fqdn;
  }
  if (name === zone || name.endsWith(`.${zone}`)) return name;
  const fqdn = `${name}.${zone}`;
  // DNS's limit on a whole name, which no provider goes past: said of the field, not by them.
  if (fqdn.length > 253)
    throw fieldError('name', `With ${zone} the name is ${fqdn.length} characters; at most 253`);
  return fqdn;
}
