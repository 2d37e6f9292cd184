/**
 * Third-party keys (spec 7 "Third-party keys"): a user's credentials for other services, stored
 * sealed. DNS uses its providers' keys; storage, cloud and git integrations will use theirs, each
 * through this feature's api.ts / serverApi.ts.
 */
import { z } from 'zod';
import { type ResourceDef, defineResource } from '../../resources/define';
import {
  INTEGRATION_KINDS,
  thirdPartyKeyInput,
  thirdPartyKeySchema,
  thirdPartyKeyUpdate,
} from './integrations';

/** The user's credentials for other services (spec 7 "Third-party keys"). */
export const thirdPartyKeys = defineResource({
  name: 'thirdpartykeys',
  label: 'Third-party keys',
  // The user's own keys: `{integrationId}` is loaded through `{uid}` by the request hook.
  parent: 'account',
  params: { integrationId: 'id' },
  schema: thirdPartyKeySchema,
  input: thirdPartyKeyInput,
  paths: {
    list: 'thirdpartykeys/users/{uid}',
    one: 'thirdpartykeys/{integrationId}/users/{uid}',
  },
  idParam: 'integrationId',
  ops: {
    list: {
      guard: 'self',
      sort: ['created_at', 'label'],
      filters: z.object({ kind: z.enum(INTEGRATION_KINDS).optional() }),
    },
    create: {
      guard: 'self',
      summary: 'Store a credential (encrypted); checked with the provider where that is cheap',
    },
    update: {
      guard: 'self',
      method: 'PUT',
      body: thirdPartyKeyUpdate,
      summary: 'Replace the credential (checked again), label, address or key id',
    },
    delete: { guard: 'self', summary: 'Disconnect: the credential is erased' },
  },
  ui: { listFields: ['integration', 'label', 'hint', 'updated_at'], recordRepresentation: 'label' },
});

/** The resources of third-party keys. */
export const resources = {
  thirdpartykeys: thirdPartyKeys,
} as const satisfies Record<string, ResourceDef>;

/** No agent ops: the account area lives in the panel. */
export const ops = {};
