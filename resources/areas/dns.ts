import type { ResourceDef } from '../define';

/** The resources of third-party keys and DNS (issue 4), merged into resources/index.ts. */
export const dnsResources = {} as const satisfies Record<string, ResourceDef>;
