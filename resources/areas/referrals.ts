import type { ResourceDef } from '../define';

/** The resources of referrals (issue 4), merged into resources/index.ts. */
export const referralsResources = {} as const satisfies Record<string, ResourceDef>;
