import type { ResourceDef } from '../define';

/** The resources of support tickets (issue 4), merged into resources/index.ts. */
export const ticketsResources = {} as const satisfies Record<string, ResourceDef>;
