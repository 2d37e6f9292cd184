/**
 * Cron jobs (spec "Cron jobs"): per system user of a server, a schedule and a command run as
 * that user. The panel keeps the desired jobs; the agent writes them into the user's crontab
 * between markers, leaving the user's own lines as they are.
 */
import { z } from 'zod';
import { managedState } from '../../resources/managedState';
import { defineResource } from '../../resources/define';
import { op } from '../../resources/agent/opDef';
import { systemUserName } from '../../resources/agent/validators';
import { SCHEDULE_CHOICES, describeSchedule, scheduleProblem } from './schedule';

export const cronSchedule = z
  .string()
  .trim()
  .max(100)
  .superRefine((value, ctx) => {
    const problem = scheduleProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

/**
 * The command, run by cron through the user's shell: one line (a newline would start another
 * crontab entry), no NUL. `%` is allowed; the agent escapes it (cron reads a bare one as a newline).
 */
export const cronCommand = z
  .string()
  .trim()
  .min(1, 'Give the command to run')
  .max(1000)
  .refine((c) => !/[\r\n\0]/.test(c), 'The command must be one line');

/** The system user the job runs as: root, or one of the server's system users. */
export const cronUser = systemUserName.or(z.literal('root'));

export const cronJobSchema = z.object({
  id: z.number().int(),
  label: z.string(),
  sys_user: z.string(),
  schedule: z.string(),
  /** The schedule in words ("Every day at 03:30"). */
  schedule_text: z.string(),
  command: z.string(),
  /** A paused job stays in the panel and leaves the crontab until it is enabled again. */
  enabled: z.boolean(),
  /** The web app whose install made the job (Nextcloud's background job), and its name. */
  webapp_id: z.number().int().nullable(),
  webapp_name: z.string().nullable(),
  ...managedState,
});
export type CronJob = z.infer<typeof cronJobSchema>;

export const cronJobInput = z.object({
  label: z.string().trim().max(100).default(''),
  sys_user: cronUser,
  schedule: cronSchedule,
  command: cronCommand,
  enabled: z.boolean().default(true),
});

/** What "Run now" answers: the command's exit code and the end of its output. */
export const cronRunResult = z.object({
  code: z.number().int(),
  output: z.string(),
  /** The output was longer: only its end is here. */
  truncated: z.boolean(),
  timed_out: z.boolean(),
});

export const cronjobs = defineResource({
  name: 'cronjobs',
  label: 'Cron Jobs',
  parent: 'server',
  params: { cronId: 'id' },
  idParam: 'cronId',
  schema: cronJobSchema,
  input: cronJobInput,
  paths: {
    list: 'cronjobs/servers/{sid}/users/{uid}',
    one: 'cronjobs/{cronId}/servers/{sid}/users/{uid}',
  },
  ops: {
    list: {
      guard: 'self',
      sort: ['created_at', 'sys_user', 'label'],
      summary: 'Cron jobs of the server; `?sync=true` compares them with its crontabs',
      filters: z.object({
        sys_user: cronUser.optional(),
        sync: z.enum(['true', 'false']).optional(),
      }),
    },
    get: { guard: 'self' },
    create: { guard: 'self', summary: 'Add a cron job (pending until the server has it)' },
    update: {
      guard: 'self',
      method: 'PUT',
      summary: 'Change a cron job',
      // A PUT replaces the job: every field, as on create (a missing `enabled` is no pause).
      body: cronJobInput,
    },
    delete: { guard: 'self', summary: 'Remove a cron job from the crontab' },
  },
  actions: {
    run: {
      method: 'POST',
      path: 'cronjobs/{cronId}/run/servers/{sid}/users/{uid}',
      guard: 'self',
      summary: "Run the job's command now, as its user (at most a minute); its output's end",
      response: cronRunResult,
    },
  },
  example: {
    label: 'nightly',
    sys_user: 'root',
    schedule: '30 3 * * *',
    command: 'true',
    enabled: true,
  },
  ui: {
    listFields: ['label', 'sys_user', 'schedule', 'command', 'webapp_name', 'status'],
    formFields: ['label', 'sys_user', 'schedule', 'command', 'enabled'],
    widgets: {
      sys_user: {
        kind: 'reference',
        resource: 'sysusers',
        optionText: 'user_name',
        optionValue: 'user_name',
        extra: [{ label: 'root', value: 'root' }],
      },
      schedule: { kind: 'choices', choices: SCHEDULE_CHOICES, custom: true },
      command: { kind: 'code' },
    },
    labels: {
      label: 'Name',
      sys_user: 'Run as',
      schedule: 'When',
      command: 'Command',
      enabled: 'Enabled',
      webapp_name: 'Web app',
    },
    help: {
      label: 'For you to recognise the job; optional',
      sys_user: "root, or one of the server's system users",
      schedule: 'Five fields (minute hour day-of-month month day-of-week) or an @ form',
      command: "One line, run by the user's shell; % is passed through as %",
    },
    recordRepresentation: 'label',
  },
});

export const resources = { cronjobs };

/** A job as the agent writes it: the panel's id marks its line. */
const cronLine = z.object({
  id: z.number().int().positive(),
  schedule: cronSchedule,
  command: cronCommand,
});

export const ops = {
  /** Puts the job into the user's crontab (or replaces the line with its id). */
  'cron.set': op(cronLine.extend({ sys_user: cronUser }), z.object({ set: z.literal(true) })),
  /** Takes the job's line out; one already gone is no error. */
  'cron.remove': op(
    z.object({ sys_user: cronUser, id: z.number().int().positive() }),
    z.object({ removed: z.boolean() }),
  ),
  /** Runs the command once, now, as the user, through its shell (a minute at most). */
  'cron.run': op(z.object({ sys_user: cronUser, command: cronCommand }), cronRunResult, 90_000),
  /** The panel's jobs as the user's crontab holds them, and how many lines are the user's own. */
  'cron.list': op(
    z.object({ sys_user: cronUser }),
    z.object({
      // As found: a hand-edited block reads back as it is, for the drift to show.
      jobs: z.array(z.object({ id: z.number().int(), schedule: z.string(), command: z.string() })),
      own_lines: z.number().int(),
    }),
  ),
};

/** The record's derived field, filled wherever a row becomes a record. */
export const withScheduleText = <T extends { schedule: string }>(row: T) => ({
  ...row,
  schedule_text: describeSchedule(row.schedule),
});
