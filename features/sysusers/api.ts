/**
 * What system users offer other features, of the code every program loads (the panel, the agent
 * and the browser): they import it from here, never from its other files (pagesApi.tsx holds
 * what only the browser loads; lint: stackdeck/feature-api).
 */
export type { Sysuser } from './resource';
