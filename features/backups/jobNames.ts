import { z } from 'zod';

/**
 * The backups' job names, shared by the policies (which schedule them) and the runs (which
 * declare them): a policy's schedule names its job by this name only.
 */

/** One run of a policy (a schedule's slot, or "back up now"): declared by the runs' code. */
export const BACKUPS_RUN_JOB = 'backups.run';
/** What a policy's schedule hands `backups.run`. */
export const backupsRunPayload = z.object({ policy_id: z.number().int().positive() });
export type BackupsRunPayload = z.infer<typeof backupsRunPayload>;

/** The daily metering of the panel storage's use per account (serverMeter.ts). */
export const BACKUPS_METER_JOB = 'backups.meter';

/** The schedule of policy `id` (`app.jobs.schedule`), unique among the panel's schedules. */
export const policyScheduleName = (id: number) => `backups.policy.${id}`;
