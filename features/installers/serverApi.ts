/**
 * What installers offers other features, of the code the panel loads: they import it from here,
 * never from its other files (api.ts holds what every program loads; lint: stackdeck/feature-
 * api).
 */
export { makeDatabase, makeDbUser, removeDatabase, removeDbUser } from './serverApp';
export {
  appPath,
  fetchStep,
  freeDatabaseName,
  installWithDatabase,
  startAppTask,
  startInstall,
  stepOp,
} from './serverRun';
export { generatedPassword, generatedSalt, randomFrom, randomSuffix } from './serverSecrets';
export type { Step } from './serverSteps';
