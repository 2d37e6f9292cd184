import { ADMIN, type Row } from './support';

/**
 * What an admin does for an account instead of reading its codes in the outbox (issue 8):
 * confirm it, or mail its owner a fresh reset code. Admins only; acting as a user is not enough.
 */
export const rows: Row[] = [
  { route: 'POST /api/v1/admin/confirm/users/:uid', expect: ADMIN },
  { route: 'POST /api/v1/admin/password-reset/users/:uid', expect: ADMIN },
];
