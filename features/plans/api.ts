/**
 * What plans offers other features, of the code every program loads (declarations, money
 * helpers). The reads that need the database are in serverApi.ts (the panel only).
 */
export {
  CURRENCIES,
  CURRENCY_LABELS,
  CURRENCY_EXPONENTS,
  MAX_MINOR,
  currency,
  formatMinor,
  formatMoney,
  minorUnits,
} from './money';
export type { Currency } from './money';
export { MAIN_PLAN_IDS, PLAN_IDS, PLAN_KINDS, planSchema } from './resource';
export type { Plan, PlanKind, PlanLimits } from './resource';
export { planPaths } from './links';
export {
  LIMITED_THINGS,
  PLAN_LIMIT_CODE,
  PLAN_UPGRADE_PATH,
  countOf,
  planLimitWords,
} from './limitWords';
export type { LimitedThing, PlanLimitDetails } from './limitWords';
