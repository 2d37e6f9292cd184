/**
 * Human labels for declared field names. The spec keeps its own spelling (Addr_1, TaxNum,
 * LoginNotif); people should read "Address line 1", not the column name.
 */
const KNOWN: Record<string, string> = {
  id: 'ID',
  ip: 'IP address',
  ip4: 'IP address',
  uuid: 'UUID',
  user_name: 'Name',
  user_agent: 'Device',
  created_at: 'Time',
  updated_at: 'Updated',
  sent_at: 'Sent',
  plan_id: 'Plan',
  actor_id: 'By',
  is_admin: 'Admin',
  is_admin_staff: 'Admin staff',
  Addr_1: 'Address line 1',
  Addr_2: 'Address line 2',
  CompanyName: 'Company',
  PostalCode: 'Postal code',
  TaxNum: 'Tax number',
  TimeZone: 'Time zone',
  LoginNotif: 'Email me on every sign-in',
  api_key: 'API key',
  two_factor: 'Two-factor sign-in',
  q: 'Search',
};

/** `created_at` -> "Time", `CompanyName` -> "Company", `os_version` -> "Os version". */
export function fieldLabel(name: string): string {
  const known = KNOWN[name];
  if (known) return known;
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_\-.]+/g, ' ')
    .trim()
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
