/**
 * What cron offers other features, of the code the panel loads: they import it from here, never
 * from its other files (api.ts holds what every program loads; lint: stackdeck/feature-api).
 */
export { appCronStep, phpCli } from './serverApp';
