import type { Generated, Insertable, Selectable, Updateable } from 'kysely';
import type { Flag, Timestamp } from './columns';

export type { Flag, Timestamp };

export interface UsersTable {
  id: Generated<number>;
  uuid: string;
  email: string;
  user_name: string;
  password_hash: string;
  is_admin: Flag;
  is_admin_staff: Flag;
  plan_id: number;
  api_key: string | null;
  /** SHA-256 of the API secret; the secret itself is shown once. */
  api_secret_hash: string | null;
  two_factor: Flag;
  two_factor_method: 'email' | 'totp' | null;
  /** Encrypted with the install key. */
  totp_secret: string | null;
  totp_pending_secret: string | null;
  /** Last accepted TOTP time step: a code is good once. */
  totp_last_step: number | null;
  login_notif: Flag;
  confirmed: Flag;
  disabled: Flag;
  referrer_id: number | null;
  addr_1: string | null;
  addr_2: string | null;
  city: string | null;
  company_name: string | null;
  country: string | null;
  postal_code: string | null;
  state: string | null;
  tax_num: string | null;
  time_zone: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface UserPhotosTable {
  user_id: number;
  data: string;
  updated_at: Timestamp;
}

export interface SessionsTable {
  id: string;
  user_id: number;
  /** The admin acting as the user, when this is an impersonation token. */
  actor_id: number | null;
  ip: string;
  user_agent: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  revoked_at: Timestamp | null;
}

export interface AuthLogsTable {
  id: Generated<number>;
  user_id: number | null;
  email: string;
  ip: string;
  user_agent: string;
  outcome: string;
  created_at: Timestamp;
}

export interface AccountActivityTable {
  id: Generated<number>;
  user_id: number;
  actor_id: number | null;
  /** Who did it, as shown (server/http/who.ts); null on lines older than the column. */
  who: string | null;
  message: string;
  ip: string;
  created_at: Timestamp;
}

export type CodePurpose = 'confirm' | 'login' | 'reset' | 'verify';

export interface OneTimeCodesTable {
  id: string;
  user_id: number | null;
  purpose: CodePurpose;
  code_hash: string;
  attempts: number;
  expires_at: Timestamp;
  used_at: Timestamp | null;
  created_at: Timestamp;
}

export interface OutboxTable {
  id: Generated<number>;
  to_addr: string;
  subject: string;
  text_body: string;
  created_at: Timestamp;
  sent_at: Timestamp | null;
  error: string | null;
}

export interface ServersTable {
  id: Generated<number>;
  uuid: string;
  user_id: number;
  name: string;
  ip4: string | null;
  provider: string | null;
  connected: Flag;
  is_available: Flag;
  is_shared: Flag;
  is_accessible: Flag;
  os_version: string | null;
  timezone: string | null;
  /** SHA-256 of the agent's key: one key per server, acting for that server only. */
  agent_key_hash: string | null;
  /** Names the install script (`/install/{key}`) until the agent first connects. */
  install_key: string | null;
  /** The name the user chose, applied when the server connects (until then it is cs-...). */
  pending_name: string | null;
  /** Set root's password on the first opening: only when the owner asked for it at connect. */
  root_password: Generated<Flag>;
  hostname: string | null;
  kernel_version: string | null;
  agent_version: string | null;
  last_seen_at: Timestamp | null;
  /** The latest report (JSON), kept for offline servers. */
  live_json: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface ServerEventsTable {
  id: Generated<number>;
  server_id: number;
  event: string;
  code: number;
  created_at: Timestamp;
}

export interface ServerActivityTable {
  id: Generated<number>;
  server_id: number;
  user_id: number | null;
  actor_id: number | null;
  /** Who did it, as shown (server/http/who.ts); null on lines older than the column. */
  who: string | null;
  message: string;
  status: 'pending' | 'done' | 'failed';
  error: string | null;
  created_at: Timestamp;
  finished_at: Timestamp | null;
}

export interface ServerStatsTable {
  server_id: number;
  resolution: number;
  at: number;
  cpu: number;
  load: number;
  memory_used: number;
  memory_total: number;
  disk_used: number;
  disk_total: number;
  rx_rate: number;
  tx_rate: number;
}

export type DesiredState = 'pending' | 'active' | 'failed';

/** Where a server-managed row stands (server/managed/table.ts). */
export type ManagedState = DesiredState | 'deleting';

export interface SysusersTable {
  id: Generated<number>;
  server_id: number;
  user_name: string;
  quota_hard: number;
  quota_soft: number;
  status: ManagedState;
  error: string | null;
  error_field: string | null;
  /** The new password's SHA-512 crypt hash, until the server has it (then null). */
  password_hash: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface PubkeysTable {
  id: Generated<number>;
  server_id: number;
  user_name: string;
  label: string;
  type: string;
  fingerprint: string;
  public_key: string;
  /** `removing`: its adder lost the server; it is taken off when the agent answers. */
  status: ManagedState | 'removing';
  error: string | null;
  error_field: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** The panel user who added it (a team member on a shared server); null: the owner, before 0007. */
  added_by: number | null;
}

export interface ServerTransfersTable {
  id: string;
  server_id: number;
  from_user_id: number;
  to_email: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  processed_at: Timestamp | null;
  /** Set when another offer for the server was accepted, or the server changed hands. */
  voided_at: Timestamp | null;
}

export interface ApiKeysTable {
  id: Generated<number>;
  user_id: number;
  api_key: string;
  /** SHA-256 of the secret; the secret itself is shown once. */
  secret_hash: string;
  label: string;
  created_at: Timestamp;
  last_used_at: Timestamp | null;
  last_used_ip: string | null;
}

export interface TasksTable {
  id: Generated<number>;
  user_id: number;
  server_id: number | null;
  kind: string;
  name: string;
  status: 'running' | 'completed' | 'failed';
  /** The agent op the task runs, if it is one (server/tasks/taskOps.ts). */
  op_id: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface TaskEventsTable {
  id: Generated<number>;
  task_id: number;
  event: string;
  code: number;
  created_at: Timestamp;
}

/** Every table; the feature folders add theirs by augmenting this interface. */
export interface Database {
  users: UsersTable;
  user_photos: UserPhotosTable;
  sessions: SessionsTable;
  auth_logs: AuthLogsTable;
  account_activity: AccountActivityTable;
  one_time_codes: OneTimeCodesTable;
  outbox: OutboxTable;
  servers: ServersTable;
  server_events: ServerEventsTable;
  server_activity: ServerActivityTable;
  server_stats: ServerStatsTable;
  sysusers: SysusersTable;
  pubkeys: PubkeysTable;
  server_transfers: ServerTransfersTable;
  api_keys: ApiKeysTable;
  tasks: TasksTable;
  task_events: TaskEventsTable;
}

export type UserRow = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserPatch = Updateable<UsersTable>;
export type SessionRow = Selectable<SessionsTable>;
export type ServerRow = Selectable<ServersTable>;
