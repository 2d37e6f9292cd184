/**
 * What mail offers other features, of the code the agent loads: import it from here, never from
 * mail's other files (api.ts holds what every program loads; lint: stackdeck/feature-api).
 */
export { MASTER_SECRET, MASTER_USER } from './agentConfigs';
