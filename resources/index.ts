/** Every resource of the panel. Adding a plain resource means adding its file and a line here. */
import type { ResourceDef } from './define';
import { teamsResources } from './areas/teams';
import { dnsResources } from './areas/dns';
import { ticketsResources } from './areas/tickets';
import { referralsResources } from './areas/referrals';
import { accntactivity } from './accntactivity';
import { adminDashboard, adminUsers } from './admin-users';
import { authlogs } from './authlogs';
import { cloneEvents } from './clone-events';
import { outbox } from './outbox';
import { pubkeys } from './pubkeys';
import { serverActivity } from './server-activity';
import { servers } from './servers';
import { services } from './services';
import { sessions } from './sessions';
import { sshconfig } from './sshconfig';
import { sysusers } from './sysusers';
import { users } from './users';

export const resources = {
  users,
  sessions,
  authlogs,
  accntactivity,
  'clone-events': cloneEvents,
  servers,
  'server-activity': serverActivity,
  services,
  sysusers,
  pubkeys,
  sshconfig,
  'admin-users': adminUsers,
  'admin-dashboard': adminDashboard,
  outbox,
  // Account area (issue 4), one registry a feature.
  ...teamsResources,
  ...dnsResources,
  ...ticketsResources,
  ...referralsResources,
} as const satisfies Record<string, ResourceDef>;

export type ResourceName = keyof typeof resources;

export function getResource(name: string): ResourceDef {
  const resource = (resources as Record<string, ResourceDef>)[name];
  if (!resource) throw new Error(`unknown resource "${name}"`);
  return resource;
}
