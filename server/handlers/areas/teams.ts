import type { BoundHandlers } from '../../http/handlers';

/** The server side of resources/areas/teams.ts. */
export const teamsHandlers: readonly BoundHandlers[] = [];
