/**
 * The wire between the panel and the agent on each server (socket.io). The agent connects to
 * the `/agent` namespace with its server's own key, reports every few seconds, and answers
 * ops (request/ack). Browsers use the `/live` namespace and join the rooms of servers they may see.
 */
import { z } from 'zod';

export const AGENT_NAMESPACE = '/agent';
export const BROWSER_NAMESPACE = '/live';
export const REPORT_INTERVAL_MS = 5000;
/** The spec's reconnect rule: wait 1000 ms, never give up. */
export const RECONNECT_DELAY_MS = 1000;
/** Ops that take longer than this are reported as failed (a reboot or install is a task). */
export const DEFAULT_OP_TIMEOUT_MS = 30_000;

/** socket.io events. */
export const EVENTS = {
  /** agent -> panel, every REPORT_INTERVAL_MS. */
  report: 'report',
  /** panel -> agent, with ack: an op to run. */
  op: 'op',
  /** agent -> panel: a step of a running op (`OpProgress`), for the task's events. */
  progress: 'progress',
  /**
   * agent -> panel: the reply of an op whose request came over a connection that is gone (the
   * panel restarted, the network dropped): its ack cannot arrive, so the reply comes on the
   * next connection (`OpDone`), to whichever panel the agent reaches.
   */
  done: 'op:done',
  /** panel -> browser: a server's merged live info. */
  live: 'live',
  /** browser -> panel, with ack: join a server's room. */
  subscribe: 'subscribe',
  unsubscribe: 'unsubscribe',
  /** panel -> browser: a step or the end of one of the user's tasks (server/tasks/taskPush.ts). */
  task: 'task',
  /** panel -> browser: one of the user's alerts opened or closed (features/alerts). */
  alert: 'alert',
} as const;

const bytes = z.number().nonnegative();

/** A process of one of the panel's supervisor jobs, as supervisord says (features/supervisor). */
export const supervisorProcess = z.object({
  /** The job's name (the program group without the panel's prefix). */
  name: z.string().max(100),
  /** The process within it: `web_00`. */
  process: z.string().max(120),
  state: z.string().max(20),
  pid: z.number().int().nullable(),
  /** Seconds since it started, while it runs. */
  uptime: z.number().int().nullable(),
  /** What supervisord says beside the state (`Exited too quickly`). */
  description: z.string().max(500),
});

/** What the agent reports; merged into the server's live info. */
export const reportSchema = z.object({
  agent_version: z.string().max(50),
  kernel_version: z.string().max(200),
  /** PRETTY_NAME of /etc/os-release. */
  os: z.string().max(200),
  hostname: z.string().max(253),
  timezone: z.string().max(64),
  /** Seconds since boot. */
  uptime: z.number().nonnegative(),
  load: z.tuple([z.number().nonnegative(), z.number().nonnegative(), z.number().nonnegative()]),
  cpu: z.object({
    cores: z.number().int().positive(),
    /** Busy share of all cores since the previous report, 0-100. */
    usage: z.number().min(0).max(100),
  }),
  memory: z.object({ total: bytes, used: bytes, swap_total: bytes, swap_used: bytes }),
  /** The root filesystem. */
  disk: z.object({ total: bytes, used: bytes }),
  network: z.object({
    rx_bytes: bytes,
    tx_bytes: bytes,
    /** Bytes a second since the previous report. */
    rx_rate: bytes,
    tx_rate: bytes,
  }),
  /** When the agent took the figures (epoch ms). */
  at: z.number().int().nonnegative(),
  /**
   * The panel's supervisor jobs' processes, on a server that has any: their states reach the
   * browsers with the report (pushed, as they change), not by polling.
   */
  supervisor: z.array(supervisorProcess).max(1000).optional(),
});
export type Report = z.infer<typeof reportSchema>;

export const opRequestSchema = z.object({
  name: z.string().max(64),
  args: z.unknown(),
  /** The op's id, given by the panel: its progress events carry it. (Absent from old panels.) */
  id: z.uuid().optional(),
});
export type OpRequest = z.infer<typeof opRequestSchema>;

/**
 * A step of a long op (an install, a certificate, a backup), sent by the agent while the op
 * runs; the panel hands it to whoever called the op (a task's events). `code` is the step's
 * progress as task events count it (0 started ... 10 done).
 */
export const opProgressSchema = z.object({
  opId: z.uuid(),
  event: z.string().min(1).max(500),
  code: z.number().int().min(0).max(100),
});
export type OpProgress = z.infer<typeof opProgressSchema>;

/**
 * Why an op failed, by kind: the panel maps it to an HTTP answer (a `field` makes it a 400 with
 * the message at that field of the form). Codes the panel does not know count as `failed`.
 */
export const OP_ERROR_CODES = [
  /** The arguments or the state of the server make the request wrong (with `field` if one). */
  'invalid',
  /** The thing the op names is not on the server. */
  'not_found',
  /** The change clashes with what is there (a name taken, a port in use). */
  'conflict',
  /** The agent will not do it (a system account, a symbolic link where a file should be). */
  'refused',
  /** This agent does not know the op: it needs an update. */
  'unsupported',
  /** The program's own check refused the new configuration; the old one was kept. */
  'check_failed',
  /** The program would not reload with the new configuration; the old one was put back. */
  'reload_failed',
  /** Anything else: a program failed, with its message. */
  'failed',
] as const;
export type OpErrorCode = (typeof OP_ERROR_CODES)[number];

export const opErrorSchema = z.object({
  code: z.enum(OP_ERROR_CODES).catch('failed'),
  message: z.string(),
  /** The argument the error concerns, as the panel's form names it. */
  field: z.string().max(200).optional(),
});
export type OpErrorBody = z.infer<typeof opErrorSchema>;

/** An op's answer. Agents before structured errors sent the message alone as `error`. */
export type OpReply = { ok: true; data: unknown } | { ok: false; error: OpErrorBody | string };

export const opDoneSchema = z.object({
  opId: z.uuid(),
  reply: z.union([
    z.object({ ok: z.literal(true), data: z.unknown() }),
    z.object({ ok: z.literal(false), error: z.union([opErrorSchema, z.string()]) }),
  ]),
});
export type OpDone = z.infer<typeof opDoneSchema>;

/** Handshake `auth` of an agent connection. */
export const agentAuthSchema = z.object({
  key: z.string().min(32).max(128),
  agent_version: z.string().max(50),
});
