/**
 * What webapps offers other features, of the code the panel loads: they import it from here,
 * never from its other files (api.ts holds what every program loads; lint: stackdeck/feature-
 * api).
 */
export { webappHooks } from './serverHooks';
export { specOf, webappKind } from './serverKind';
export type { Input as WebappInput } from './serverKind';
export type { WebappRow } from './serverTable';
