import type { Guard, ResourceDef } from './define';

/** The caller as the UI knows them. */
export interface Role {
  signedIn: boolean;
  isAdmin: boolean;
  isStaff: boolean;
}

export const ANONYMOUS: Role = { signedIn: false, isAdmin: false, isStaff: false };

/** The same rule the server's guard applies, for the caller's own records. */
export function guardAllows(guard: Guard, role: Role): boolean {
  switch (guard) {
    case 'public':
      return true;
    case 'user':
    case 'self':
      return role.signedIn;
    case 'staff':
      return role.isAdmin || role.isStaff;
    case 'admin':
      return role.isAdmin;
  }
}

const ACTION_TO_OP = {
  list: 'list',
  show: 'get',
  edit: 'update',
  create: 'create',
  delete: 'delete',
} as const;

/**
 * react-admin's canAccess, as one pure function over the resource declarations: an action is
 * allowed when the resource declares the matching operation and its guard admits the role.
 */
export function canAccess(role: Role, resource: ResourceDef | undefined, action: string): boolean {
  if (!resource) return false;
  const op = ACTION_TO_OP[action as keyof typeof ACTION_TO_OP];
  const def = op ? resource.ops[op] : undefined;
  return def ? guardAllows(def.guard, role) : false;
}
