/**
 * What releases offers other features, of the code every program loads (the panel, the agent and
 * the browser): they import it from here, never from its other files (serverApi.ts, agentApi.ts
 * and pagesApi.tsx hold what only one program loads; lint: stackdeck/feature-api).
 */
export { listingProblem, parseTarListing, parseZipListing } from './archive';
export type { Entry } from './archive';
export { releasePaths } from './links';
export type { AppRelease, AppSourceStatus } from './resource';
export { APP_LABELS } from './urls';
export type { App } from './urls';
