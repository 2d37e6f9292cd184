/**
 * What plans offers other features, of the code the panel loads (billing: the plan of a
 * subscription, what it allows): they import it from here, never from its other files.
 */
export { activePlans, limitsIn, limitsOf, planById } from './serverPlans';
