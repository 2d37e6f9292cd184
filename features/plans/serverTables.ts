import type { Generated, Selectable } from 'kysely';
import type { Flag, Timestamp } from '../../server/db/columns';

/** A package: the id is the plan id of spec s.9 for the main ones. */
export interface BizplansTable {
  id: Generated<number>;
  name: string;
  kind: 'main' | 'addon';
  description: string;
  monthly_price: number;
  annual_price: number;
  currency: string;
  active: Flag;
  max_servers: number | null;
  max_webapps: number | null;
  backup_storage_gb: number | null;
  max_team_members: number | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

declare module '../../server/db/schema' {
  interface Database {
    bizplans: BizplansTable;
  }
}

export type PlanRow = Selectable<BizplansTable>;
