/**
 * The spec's older addresses (section 2 lists /server-summaryold/{id} and /mysqlold/{id}): each
 * leads to the page that replaced it, so an old bookmark lands on today's page and address.
 */
const CURRENT_OF: Readonly<Record<string, string>> = {
  'server-summaryold': 'server-summary',
  mysqlold: 'database-list',
};

/**
 * Section 2 writes /payment{id} and /recharge-payment-method{id} with the id glued to the name
 * (`/payment12`): react-router matches whole segments only, so the pages live at `/payment/12`
 * and these spellings lead there (no route matches them: the not-found fallback asks here).
 */
const GLUED = /^\/(payment|recharge-payment-method)(\d+)\/?$/;

/** The older addresses' first segments, for the route table. */
export const OLD_ADDRESSES = Object.keys(CURRENT_OF);

/**
 * Today's address of an older or glued one (`/mysqlold/7` → `/database-list/7`, `/payment12` →
 * `/payment/12`), or null. The address it gives goes through the guard like any other.
 */
export function currentAddress(pathname: string): string | null {
  const glued = GLUED.exec(pathname);
  if (glued) return `/${glued[1]}/${glued[2]}`;
  const match = /^\/([a-z-]+)\/(\d+)\/?$/.exec(pathname);
  const current = match ? CURRENT_OF[match[1]!] : undefined;
  return current ? `/${current}/${match![2]}` : null;
}
