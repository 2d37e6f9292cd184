/**
 * Every op the panel can ask an agent to run: its arguments and its answer. The panel calls
 * them through server/agents/rpc.ts; the agent implements them under agent/ops/ and validates
 * the arguments with the same schemas before anything runs.
 */
import { z } from 'zod';
import { hostname } from './validators';
import { featureOps } from '../features.gen';
import { noArgs, op } from './opDef';

export type { OpDef } from './opDef';

const none = noArgs;

const coreOps = {
  /** A trivial read: the op round-trip benchmark compares it with `ssh ... cat /proc/uptime`. */
  'system.uptime': op(none, z.object({ uptime: z.number() })),
  /** OS and time zone (spec `ostz`), plus what else identifies the machine. */
  'system.info': op(
    none,
    z.object({ os: z.string(), tz: z.string(), hostname: z.string(), kernel_version: z.string() }),
  ),
  'system.reboot': op(none, z.object({ rebooting: z.literal(true) })),
  'system.hostname': op(z.object({ hostname }), z.object({ hostname: z.string() })),
  /** Package caches, old logs, journal vacuum: bytes freed by each. */
  'system.cleanup': op(
    none,
    z.object({ packages: z.number(), logs: z.number(), journal: z.number() }),
    180_000,
  ),

  /** The server is removed from the panel: the agent stops and removes itself. */
  'agent.uninstall': op(none, z.object({ uninstalling: z.literal(true) })),
  /** The ids of the ops still running (a panel that restarted asks after its tasks). */
  'agent.running': op(none, z.object({ ops: z.array(z.string()) })),
} as const;

/** The core ops and those of every feature folder (features/<name>/resource.ts `ops`). */
export const ops = { ...coreOps, ...featureOps } as const;

export type OpName = keyof typeof ops;
export type OpArgs<N extends OpName> = z.input<(typeof ops)[N]['args']>;
export type OpResult<N extends OpName> = z.output<(typeof ops)[N]['result']>;

export const OP_NAMES = Object.keys(ops) as OpName[];
