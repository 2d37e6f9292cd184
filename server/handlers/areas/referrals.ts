import type { BoundHandlers } from '../../http/handlers';

/** The server side of resources/areas/referrals.ts. */
export const referralsHandlers: readonly BoundHandlers[] = [];
