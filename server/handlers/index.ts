import { featureHandlers } from '../features';
import type { BoundHandlers } from '../http/handlers';
import { cloneEventHandlers } from './account';
import { adminDashboardHandlers, adminUserHandlers, outboxHandlers } from './admin';
import { accountActivityHandlers, authlogHandlers } from './logs';
import { serverActivityHandlers, serverHandlers } from './servers';
import { userHandlers } from './users';

/** The server side of every resource in resources/index.ts. */
export const allHandlers: readonly BoundHandlers[] = [
  userHandlers,
  authlogHandlers,
  accountActivityHandlers,
  cloneEventHandlers,
  serverHandlers,
  serverActivityHandlers,
  adminUserHandlers,
  adminDashboardHandlers,
  outboxHandlers,
  // The feature folders (features/<name>/server.ts), gathered by scripts/gen-features.mjs.
  ...featureHandlers,
];
