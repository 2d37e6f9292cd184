/**
 * Live server reports in the browser: one shared socket.io connection to the panel's `/live`
 * namespace. Use `useServerLive(server.uuid)` → `{ connected, report, streaming, error }`.
 */
export { useServerLive, type ServerLive } from './useServerLive';
export type { LiveMessage, ServerLiveState } from './socket';
export { useTaskPush } from './taskPush';
export { useAlertPush } from './alertPush';
