import { type OpName, ops } from '../../resources/agent/ops';
import { type OpReply, opRequestSchema } from '../../resources/agent/protocol';
import { agentOps } from './agent';
import { cleanupOps } from './cleanup';
import { pubkeysOps } from './pubkeys';
import { servicesOps } from './services';
import { sshconfigOps } from './sshconfig';
import { systemOps } from './system';
import { sysusersOps } from './sysusers';
import type { OpTable } from './types';

/** Every op the agent implements, one module an area: the type insists on all of them. */
export const opTable: OpTable = {
  ...systemOps,
  ...cleanupOps,
  ...servicesOps,
  ...sysusersOps,
  ...pubkeysOps,
  ...sshconfigOps,
  ...agentOps,
};

/**
 * Runs one op: the name must be known, the arguments must pass the shared schema; failures
 * come back as a message for the user, never as a crash of the agent.
 */
export async function dispatch(
  request: unknown,
  table: Partial<OpTable> = opTable,
): Promise<OpReply> {
  const parsed = opRequestSchema.safeParse(request);
  if (!parsed.success || !(parsed.data.name in ops))
    return { ok: false, error: 'Unknown operation' };
  const name = parsed.data.name as OpName;
  const impl = table[name] as ((args: unknown) => Promise<unknown>) | undefined;
  if (!impl) return { ok: false, error: `This agent cannot do ${name}; update it` };
  const args = ops[name].args.safeParse(parsed.data.args ?? {});
  if (!args.success) {
    return {
      ok: false,
      error: `Invalid arguments: ${args.error.issues.map((i) => i.message).join('; ')}`,
    };
  }
  try {
    return { ok: true, data: await impl(args.data) };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}
