/**
 * The spec's older addresses (section 2 lists /server-summaryold/{id} and /mysqlold/{id}): each
 * leads to the page that replaced it, so an old bookmark lands on today's page and address.
 */
const CURRENT_OF: Readonly<Record<string, string>> = {
  'server-summaryold': 'server-summary',
  mysqlold: 'database-list',
};

/** The older addresses' first segments, for the route table. */
export const OLD_ADDRESSES = Object.keys(CURRENT_OF);

/** Today's address of an older one (`/mysqlold/7` → `/database-list/7`), or null. */
export function currentAddress(pathname: string): string | null {
  const match = /^\/([a-z-]+)\/(\d+)\/?$/.exec(pathname);
  const current = match ? CURRENT_OF[match[1]!] : undefined;
  return current ? `/${current}/${match![2]}` : null;
}
