import type { ResourceDef } from '../define';
import { tickets } from '../tickets';

/** The resources of support tickets (issue 4), merged into resources/index.ts. */
export const ticketsResources = { tickets } as const satisfies Record<string, ResourceDef>;
