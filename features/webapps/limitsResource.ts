/**
 * An app's limits (issue 22, finding 1): the processes and memory its cron jobs, supervisor
 * programs and deployment scripts may take. Kept on the app's row; a change reaches the
 * server at once (`limits.apply`), for the app's system user (limits.ts says why the user).
 */
import { z } from 'zod';
import { defineResource } from '../../resources/define';
import { op } from '../../resources/agent/opDef';
import { systemUserName } from '../../resources/agent/validators';
import { appLimits, appLimitsState } from './limits';

const path = 'applimits/webstacks/{appId}/servers/{sid}/users/{uid}';

export const applimits = defineResource({
  name: 'applimits',
  label: 'Limits',
  parent: 'app',
  schema: appLimitsState.extend({ id: z.number().int() }),
  paths: {},
  ops: {},
  actions: {
    ofApp: {
      method: 'GET',
      path,
      guard: 'self',
      summary: "The app's limits: its own setting or the defaults, and what its user runs under",
      response: appLimitsState,
    },
    set: {
      method: 'PUT',
      path,
      guard: 'self',
      summary: "Set the app's limits; they apply to its user's jobs at once",
      body: appLimits,
      response: appLimitsState,
    },
    reset: {
      method: 'DELETE',
      path,
      guard: 'self',
      summary: 'Back to the default limits',
      response: appLimitsState,
    },
  },
});

export const limitsOps = {
  /** Writes the user's limits for the wrapper and pam_limits (and installs the wrapper). */
  'limits.apply': op(
    z.object({ user: systemUserName, limits: appLimits }),
    z.object({ applied: z.literal(true) }),
  ),
};
