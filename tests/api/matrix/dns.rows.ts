import type { Row } from './support';

/** Authorization matrix rows of third-party keys and DNS: one per route, as tests/api/matrix.test.ts checks. */
export const rows: Row[] = [];
