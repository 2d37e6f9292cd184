import { describe, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { defineResource } from '../../resources/define';
import type { ServerRow } from '../../server/db/schema';
import type {
  ActionContext,
  CreateBodyOf,
  ListQueryOf,
  QueryOf,
  UpdateBodyOf,
} from '../../server/http/handlers';

const _thing = defineResource({
  name: 'things',
  label: 'Things',
  schema: z.object({ id: z.number(), name: z.string() }),
  input: z.object({ name: z.string(), size: z.coerce.number().default(1) }),
  paths: { list: 'things', one: 'things/{id}' },
  ops: {
    list: { guard: 'user', filters: z.object({ q: z.string().optional() }) },
    create: { guard: 'user', query: z.object({ dry: z.enum(['true', 'false']).optional() }) },
    update: { guard: 'user' },
    delete: { guard: 'user' },
  },
  actions: {
    rename: {
      method: 'POST',
      path: 'things/{id}/rename',
      guard: 'user',
      query: z.object({ to: z.string() }),
      body: z.object({ why: z.string().optional() }),
    },
    ping: { method: 'GET', path: 'things/ping', guard: 'user' },
    look: {
      method: 'GET',
      path: 'things/look',
      guard: 'user',
      query: z.object({ server: z.coerce.number(), also: z.coerce.number().optional() }),
      loads: { server: 'servers', also: { of: 'servers', ownedOnly: true } },
    },
  },
});
type Thing = typeof _thing;

/**
 * A handler's `ctx.query` and `ctx.body` are the declaration's schemas as validated (issue 23):
 * the types the handlers rely on instead of casts. Checked by `tsc`; the run only lists them.
 */
describe('handler contexts typed from the declaration', () => {
  it('gives an action its query and body, and none where none is declared', () => {
    expectTypeOf<ActionContext<Thing, 'rename'>['query']>().toEqualTypeOf<{ to: string }>();
    expectTypeOf<ActionContext<Thing, 'rename'>['body']>().toEqualTypeOf<{ why?: string }>();
    expectTypeOf<ActionContext<Thing, 'ping'>['query']>().toEqualTypeOf<Record<string, never>>();
    expectTypeOf<ActionContext<Thing, 'ping'>['body']>().toEqualTypeOf<undefined>();
  });

  it('gives an action the rows its query ids name, optional where the field is', () => {
    expectTypeOf<ActionContext<Thing, 'look'>['loaded']>().toEqualTypeOf<{
      readonly server: ServerRow;
      readonly also: ServerRow | undefined;
    }>();
    expectTypeOf<ActionContext<Thing, 'ping'>['loaded']>().toEqualTypeOf<
      Readonly<Record<string, unknown>>
    >();
  });

  it('gives the ops their query, filters and bodies after parsing', () => {
    expectTypeOf<QueryOf<Thing, 'create'>>().toEqualTypeOf<{ dry?: 'true' | 'false' }>();
    expectTypeOf<QueryOf<Thing, 'delete'>>().toEqualTypeOf<Record<string, never>>();
    expectTypeOf<ListQueryOf<Thing>['q']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<ListQueryOf<Thing>['page']>().toEqualTypeOf<number>();
    expectTypeOf<CreateBodyOf<Thing>>().toEqualTypeOf<{ name: string; size: number }>();
    expectTypeOf<UpdateBodyOf<Thing>>().toEqualTypeOf<{ name?: string; size?: number }>();
  });
});
