/**
 * What plans offers other features, of the code the panel loads (billing: the plan of a
 * subscription, what it allows; servers, web apps, teams, backups: the limits where things are
 * created): they import it from here, never from its other files.
 */
export { activePlans, limitsIn, limitsOf, planById } from './serverPlans';
export {
  type LimitCaller,
  type PlanCheck,
  assertWithinPlan,
  planBackupBytesOf,
  planLimitRefusal,
  teamSeatsOf,
  usedBy,
} from './serverLimits';
