import type { ResourceDef } from '../../resources/define';
import { sessions } from '../../resources/sessions';
import { userSecurity } from '../../resources/user-security';

/** The resources of the account's security: API keys, authenticator enrolment, sessions. */
export const resources = {
  'user-security': userSecurity,
  sessions,
} as const satisfies Record<string, ResourceDef>;

/** No agent ops: the account area lives in the panel. */
export const ops = {};
