import { describe, expect, it } from 'vitest';
import { agentFeatures } from '../../agent/features.gen';
import { dispatch, emitAgentEvent } from '../../agent/ops/index';
import type { OpContext, OpTable } from '../../agent/ops/types';

describe("the agent's events between features", () => {
  it("a web app's removal reaches the Node.js feature, which the op does not import", () => {
    const subscribed = agentFeatures.filter((f) => f.on?.['app.removing']);
    expect(subscribed).toHaveLength(1);
    expect(Object.keys(subscribed[0]!.ops)).toContain('node.start');
  });

  it('an op raises them through its context: the subscribers run before the op goes on', async () => {
    let raised: OpContext['emit'] | undefined;
    const table = {
      'webapp.remove': async (_args: unknown, ctx: OpContext) => {
        raised = ctx.emit;
        // An app no program runs for: the Node.js feature finds nothing of it to stop.
        await ctx.emit('app.removing', { app: 'no-such-app-here' });
        return { removed: false };
      },
    } as unknown as Partial<OpTable>;
    const reply = await dispatch(
      { name: 'webapp.remove', args: { name: 'no-such-app-here', user: 'alice', files: false } },
      table,
    );
    expect(reply, JSON.stringify(reply)).toEqual({ ok: true, data: { removed: false } });
    expect(raised).toBe(emitAgentEvent);
  });
});
