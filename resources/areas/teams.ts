import type { ResourceDef } from '../define';

/** The resources of teams (issue 4), merged into resources/index.ts. */
export const teamsResources = {} as const satisfies Record<string, ResourceDef>;
