/**
 * What installers offers other features, of the code the agent loads: they import it from here,
 * never from its other files (api.ts holds what every program loads; lint: stackdeck/feature-
 * api).
 */
export {
  appUser,
  asUser,
  clearWebRoot,
  importSql,
  moveInto,
  mustAsUser,
  releaseAsWebRoot,
  releaseTree,
  runPhp,
  writeAsUser,
} from './agentSteps';
