/**
 * The admins' 911 tool (spec s.2 `/admin/911`, s.7 `GET admin/911-scripts`, by id, and `PATCH
 * admin/common-script?otp`): a library of emergency scripts run on chosen servers of any user,
 * each run confirmed by a one-time code mailed to the admin (`GET users/{uid}/otp`), used once
 * and bound to the run it started. Admins only: admin staff never see it (spec s.6).
 */
import { z } from 'zod';
import { noArgs, op } from '../../resources/agent/opDef';
import { defineResource } from '../../resources/define';
import { otpCode } from '../../resources/user-security';
import { KEEP_DAYS, SCRIPT_IDS, WAIT_SECONDS, scriptParams } from './scripts';

export const scriptParamSchema = z.object({
  name: z.enum(['keep_days', 'wait_seconds', 'kill_stale']),
  label: z.string(),
  kind: z.enum(['choice', 'boolean']),
  choices: z.array(z.number().int()),
  default: z.union([z.number().int(), z.boolean()]),
  help: z.string(),
});

export const scriptSchema = z.object({
  id: z.enum(SCRIPT_IDS),
  name: z.string(),
  description: z.string(),
  impact: z.string(),
  params: z.array(scriptParamSchema),
});
export type EmergencyScript = z.infer<typeof scriptSchema>;

/** At most this many servers in one run: a run is for a handful of servers in trouble. */
export const MAX_SERVERS = 20;

export const runBody = z.object({
  script: z.enum(SCRIPT_IDS),
  servers: z
    .array(z.number().int().positive())
    .min(1, 'Pick at least one server')
    .max(MAX_SERVERS, `At most ${MAX_SERVERS} servers in one run`)
    .refine((ids) => new Set(ids).size === ids.length, 'A server is named twice'),
  params: scriptParams.default({}),
});
export type RunBody = z.infer<typeof runBody>;

export const runTargetSchema = z.object({
  server_id: z.number().int(),
  server_name: z.string(),
  /** The task whose events are the script's output on that server (`clone-events?id=`). */
  task_id: z.number().int(),
});

export const runSchema = z.object({
  id: z.number().int(),
  script: z.enum(SCRIPT_IDS),
  servers: z.array(runTargetSchema),
  created_at: z.string(),
});
export type EmergencyRun = z.infer<typeof runSchema>;

export const emergencyScripts = defineResource({
  name: 'emergency-scripts',
  scope: 'panel',
  label: '911 scripts',
  schema: scriptSchema,
  params: { id: 'name' },
  missing: 'No such script',
  paths: { list: 'admin/911-scripts', one: 'admin/911-scripts/{id}' },
  ops: {
    list: { guard: 'admin', summary: 'The emergency scripts an admin may run' },
    get: { guard: 'admin', summary: 'One emergency script: what it does and its parameters' },
  },
  actions: {
    run: {
      method: 'PATCH',
      path: 'admin/common-script',
      guard: 'admin',
      // Guessing codes with a stolen admin token: each code has 5 tries, and runs are limited too.
      rateLimited: true,
      summary:
        'Run an emergency script on chosen servers; `otp` is a fresh code from GET users/{uid}/otp, used once for this run; output is each server task',
      query: z.object({ otp: otpCode }),
      body: runBody,
      response: runSchema,
      status: 202,
    },
  },
  ui: { listFields: ['name', 'description'], recordRepresentation: 'name' },
});

export const resources = { 'emergency-scripts': emergencyScripts };

/** What every script op answers: a line that sums it up (its steps came as progress). */
const scriptResult = z.object({ summary: z.string() });

const keepDays = z
  .number()
  .int()
  .refine((v) => (KEEP_DAYS as readonly number[]).includes(v), 'Not an allowed number of days');
const waitSeconds = z
  .number()
  .int()
  .refine((v) => (WAIT_SECONDS as readonly number[]).includes(v), 'Not an allowed wait');

/** Each script is its own op; only the allow-listed parameters reach the agent. */
export const ops = {
  'emergency.restart-web-stack': op(noArgs, scriptResult, 300_000),
  'emergency.free-disk': op(z.object({ keep_days: keepDays }), scriptResult, 600_000),
  'emergency.unlock-package-manager': op(
    z.object({ wait_seconds: waitSeconds, kill_stale: z.boolean() }),
    scriptResult,
    1_200_000,
  ),
  'emergency.restart-database': op(noArgs, scriptResult, 300_000),
  'emergency.disk-usage': op(noArgs, scriptResult, 600_000),
};
