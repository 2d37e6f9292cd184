/**
 * Every resource of the panel. A new feature is a folder under features/ (README "Adding a
 * resource"): its resources join here through the generated list, with no line written here.
 */
import type { ResourceDef } from './define';
import { accntactivity } from './accntactivity';
import { adminDashboard, adminUsers } from './admin-users';
import { authlogs } from './authlogs';
import { cloneEvents } from './clone-events';
import { outbox } from './outbox';
import { serverActivity } from './server-activity';
import { servers } from './servers';
import { users } from './users';
import { featureResources } from './features.gen';

export const resources = {
  users,
  authlogs,
  accntactivity,
  'clone-events': cloneEvents,
  servers,
  'server-activity': serverActivity,
  'admin-users': adminUsers,
  'admin-dashboard': adminDashboard,
  outbox,
  // The feature folders (features/<name>/resource.ts), gathered by scripts/gen-features.mjs.
  ...featureResources,
} as const satisfies Record<string, ResourceDef>;

export type ResourceName = keyof typeof resources;

export function getResource(name: string): ResourceDef {
  const resource = (resources as Record<string, ResourceDef>)[name];
  if (!resource) throw new Error(`unknown resource "${name}"`);
  return resource;
}
