/**
 * The main packages a fresh panel has (migration 0060): the plan ids of spec s.9. Prices in US
 * cents; limits as comparable panels sell them (one server free, a handful on Basic, no limit on
 * Pro; 10 GB backup storage is what every account had before plans: features/backups). The
 * annual price is ten months. Trial (what a new account starts on) is no plan one subscribes to:
 * it is not offered.
 */
export interface SeedPlan {
  id: number;
  name: string;
  description: string;
  monthly_price: number;
  annual_price: number;
  active: boolean;
  max_servers: number | null;
  max_webapps: number | null;
  backup_storage_gb: number | null;
  max_team_members: number | null;
}

export const MAIN_PLANS: readonly SeedPlan[] = [
  {
    id: 1,
    name: 'Trial',
    description: 'What a new account starts on: Basic for a trial period',
    monthly_price: 0,
    annual_price: 0,
    active: false,
    // What its description says: Basic's limits, but the storage every account had before plans.
    max_servers: 5,
    max_webapps: null,
    backup_storage_gb: 10,
    max_team_members: 3,
  },
  {
    id: 2,
    name: 'Free',
    description: 'One server and a few sites, for trying things out',
    monthly_price: 0,
    annual_price: 0,
    active: true,
    max_servers: 1,
    max_webapps: 3,
    backup_storage_gb: 10,
    max_team_members: 0,
  },
  {
    id: 3,
    name: 'Basic',
    description: 'For freelancers: five servers, sites without limit',
    monthly_price: 900,
    annual_price: 9000,
    active: true,
    max_servers: 5,
    max_webapps: null,
    backup_storage_gb: 50,
    max_team_members: 3,
  },
  {
    id: 4,
    name: 'Pro',
    description: 'For agencies: servers, sites and team without limit',
    monthly_price: 1900,
    annual_price: 19000,
    active: true,
    max_servers: null,
    max_webapps: null,
    backup_storage_gb: 200,
    max_team_members: null,
  },
];
