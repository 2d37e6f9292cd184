/**
 * The list and temporary-rule routes, one per list or kind as the spec writes them
 * (`csf/csf_allow/...`, `trules/deny/...`): each is its own declared, guarded route, so the
 * matrix and the OpenAPI document name every one.
 */
import { z } from 'zod';
import type { ActionDef } from '../../resources/define';
import { ipInput } from './state';

const S = 'servers/{sid}/users/{uid}';

export const LISTS = ['csf_allow', 'csf_deny', 'csf_ignore'] as const;
export type ListName = (typeof LISTS)[number];
export const TEMP_KINDS = ['allow', 'deny'] as const;

/** What a removal answers: the spec's message the page shows for 3 s. */
export const removed = z.object({ message: z.string(), ip: z.string() });
export const REMOVED_MESSAGE = 'IP address removed successfully!';

const page = {
  page: z.coerce.number().int().min(1).default(1),
  perPage: z.coerce.number().int().min(1).max(500).default(25),
};

// Generic in the schemas so the handlers get the entry's and the input's own types.
function list<L extends ListName, E extends z.ZodObject, I extends z.ZodObject>(
  name: L,
  entry: E,
  input: I,
) {
  const what = { csf_allow: 'allow', csf_deny: 'deny', csf_ignore: 'ignore' }[name];
  return {
    add: {
      method: 'POST',
      path: `csf/${name}/${S}`,
      guard: 'self',
      summary: `Add an address or CIDR block to the ${what} list`,
      body: input,
      response: entry,
      status: 201,
    },
    list: {
      method: 'GET',
      path: `csf/${name}/${S}`,
      guard: 'self',
      summary: `The ${what} list (\`?ip=\` for one address), newest first`,
      query: z.object({ ip: ipInput.optional(), ...page }),
      response: z.object({ data: z.array(entry), total: z.number().int() }),
    },
    removeIp: {
      method: 'DELETE',
      path: `csf/${name}/${S}`,
      guard: 'self',
      summary: `Take \`?ip=\` off the ${what} list`,
      query: z.object({ ip: ipInput }),
      response: removed,
    },
    removeId: {
      method: 'DELETE',
      path: `csf/${name}/{id}/${S}`,
      guard: 'self',
      summary: `Take an entry off the ${what} list by its id`,
      response: removed,
    },
  } satisfies Record<string, ActionDef>;
}

export function listActions<E extends z.ZodObject, I extends z.ZodObject>(entry: E, input: I) {
  const [a, d, i] = [
    list('csf_allow', entry, input),
    list('csf_deny', entry, input),
    list('csf_ignore', entry, input),
  ];
  return {
    allowAdd: a.add,
    allowList: a.list,
    allowRemoveIp: a.removeIp,
    allowRemoveId: a.removeId,
    denyAdd: d.add,
    denyList: d.list,
    denyRemoveIp: d.removeIp,
    denyRemoveId: d.removeId,
    ignoreAdd: i.add,
    ignoreList: i.list,
    ignoreRemoveIp: i.removeIp,
    ignoreRemoveId: i.removeId,
  };
}

export function tempActions<E extends z.ZodObject, I extends z.ZodObject>(rule: E, input: I) {
  const kind = (k: 'allow' | 'deny') =>
    ({
      list: {
        method: 'GET',
        path: `trules/${k}/${S}`,
        guard: 'self',
        summary: `Temporary ${k} rules still running, with their time left`,
        response: z.object({ data: z.array(rule), total: z.number().int() }),
      },
      add: {
        method: 'POST',
        path: `trules/${k}/${S}`,
        guard: 'self',
        summary: `${k === 'allow' ? 'Allow' : 'Deny'} an address for \`ttl\` seconds (optionally one TCP port)`,
        body: input,
        response: rule,
        status: 201,
      },
      remove: {
        method: 'DELETE',
        path: `trules/${k}/{id}/${S}`,
        guard: 'self',
        summary: `End a temporary ${k} rule now`,
        response: removed,
      },
    }) satisfies Record<string, ActionDef>;
  const [a, d] = [kind('allow'), kind('deny')];
  return {
    allowList: a.list,
    allowAdd: a.add,
    allowRemove: a.remove,
    denyList: d.list,
    denyAdd: d.add,
    denyRemove: d.remove,
  };
}
