import type { Generated } from 'kysely';
import type { Timestamp } from '../../server/db/columns';

/**
 * One run of a 911 script: who ran it, on which servers (each with the task that holds its
 * output), and the one-time code that confirmed it (its id, never the code): unique, so a code
 * starts one run at most, whatever the panels.
 */
export interface EmergencyRunsTable {
  id: Generated<number>;
  script: string;
  /** The parameters the op got, as JSON. */
  params: string;
  admin_id: number | null;
  /** The admin as the audit shows them, kept after their account is gone. */
  admin_email: string;
  otp_code_id: string;
  /** [{ server_id, server_name, task_id }] as JSON. */
  servers: string;
  created_at: Timestamp;
}

export interface EmergencyScriptTables {
  emergency_runs: EmergencyRunsTable;
}

declare module '../../server/db/schema' {
  // The feature's tables join the panel's Database type (server/db/schema.ts).
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- members come from the extended interface
  interface Database extends EmergencyScriptTables {}
}
