/**
 * The words of a plan limit's refusal (issue 26): what the plan allows and which plans allow
 * more. Pure, so the panel's answer and the browser's alert say the same thing.
 */

/** What a plan limits where it is created. */
export const LIMITED_THINGS = ['servers', 'webapps', 'team_members'] as const;
export type LimitedThing = (typeof LIMITED_THINGS)[number];

/** The stable `code` of a refusal's body: clients recognise a plan limit by it. */
export const PLAN_LIMIT_CODE = 'plan_limit';
/** Where the refusal's Upgrade link leads (the pricing page, spec s.2). */
export const PLAN_UPGRADE_PATH = '/pricing';

const NOUNS: Record<LimitedThing, [one: string, many: string]> = {
  servers: ['server', 'servers'],
  webapps: ['web app', 'web apps'],
  team_members: ['team member', 'team members'],
};

/** "1 server", "3 web apps", "no team members". */
export function countOf(what: LimitedThing, n: number): string {
  const [one, many] = NOUNS[what];
  if (n === 0) return `no ${many}`;
  return `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
}

/** "Basic", "Basic or Pro", "Basic, Plus or Pro". */
function either(names: readonly string[]): string {
  if (names.length <= 1) return names[0] ?? '';
  return `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`;
}

/**
 * "Your Free plan allows 1 server. Upgrade to Basic or Pro to add more." — or, when no plan
 * offered allows more, what to do instead.
 */
export function planLimitWords(input: {
  plan: string;
  what: LimitedThing;
  limit: number;
  /** The plans offered that allow more, cheapest first. */
  upgradeTo: readonly string[];
}): string {
  const allows = `Your ${input.plan} plan allows ${countOf(input.what, input.limit)}.`;
  if (input.upgradeTo.length) return `${allows} Upgrade to ${either(input.upgradeTo)} to add more.`;
  const [one] = NOUNS[input.what];
  return `${allows} Remove a ${one} to add another.`;
}

/** The machine fields of a refusal's body, beside `message` (the words above). */
export interface PlanLimitDetails {
  code: typeof PLAN_LIMIT_CODE;
  what: LimitedThing;
  limit: number;
  used: number;
  plan: { id: number; name: string };
  upgrade: typeof PLAN_UPGRADE_PATH;
  upgrade_to: string[];
}
