/**
 * What webapps offers other features, of the code every program loads (the panel, the agent and
 * the browser): they import it from here, never from its other files (serverApi.ts, agentApi.ts
 * and pagesApi.tsx hold what only one program loads; lint: stackdeck/feature-api).
 */
export {
  ACME_ROOT,
  CERTBOT_DIR,
  SSL_DIR,
  appDir,
  certbotLineage,
  docRoot,
  sslDir,
} from './appPaths';
export { WRAPPER, limitedArgv } from './limits';
export { appPaths } from './links';
export {
  APP_LOG_DIR,
  APP_NAME,
  appLogPath,
  domainList,
  domainName,
  phpSettings,
  phpVersion,
  stackType,
  webRoot,
} from './names';
export type { WebappType } from './names';
export { appSpec, webstacks } from './resource';
export type { AppSpec } from './resource';
export { appName, phpRuntime } from './schemas';
