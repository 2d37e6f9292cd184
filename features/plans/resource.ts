/**
 * Plans ("bizplans", spec s.3, s.7 Admin and Billing, s.9): the packages users subscribe to.
 * The main packages are the plans of spec s.9 (1 Trial, 2 Free, 3 Basic, 4 Pro), seeded and
 * edited at /admin/add-main-package/{id}; add-on packages are made at /admin/add-addon-package.
 * Prices are integer minor units of one currency; limits are what a plan allows (null: no limit).
 */
import { z } from 'zod';
import { type ResourceDef, defineResource } from '../../resources/define';
import { currency, minorUnits } from './money';

export const PLAN_IDS = { trial: 1, free: 2, basic: 3, pro: 4 } as const;
/** The main packages: the plan ids of spec s.9, fixed. */
export const MAIN_PLAN_IDS: readonly number[] = Object.values(PLAN_IDS);

export const PLAN_KINDS = ['main', 'addon'] as const;
export type PlanKind = (typeof PLAN_KINDS)[number];

/** What a plan allows; null: no limit. An add-on's are what it adds (null: adds none). */
export interface PlanLimits {
  servers: number | null;
  webapps: number | null;
  backup_storage_gb: number | null;
  team_members: number | null;
}

const limit = (what: string) =>
  z
    .number(`A number of ${what}, or empty for no limit`)
    .int(`A whole number of ${what}`)
    .min(0, 'Not below zero')
    .max(1_000_000, 'At most 1,000,000')
    .nullable();

export const planSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  /** `main`: a plan of spec s.9 a user is on; `addon`: bought on top of one. */
  kind: z.enum(PLAN_KINDS),
  description: z.string(),
  /** Minor units (1200 is 12.00) per month and per year. */
  monthly_price: z.number().int(),
  annual_price: z.number().int(),
  currency: z.string(),
  /** Offered to new subscribers; users on it keep it when it is not. */
  active: z.boolean(),
  max_servers: z.number().int().nullable(),
  max_webapps: z.number().int().nullable(),
  backup_storage_gb: z.number().int().nullable(),
  max_team_members: z.number().int().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Plan = z.infer<typeof planSchema>;

export const planInput = z.object({
  name: z.string().trim().min(1, 'Give the package a name').max(64, 'At most 64 characters'),
  description: z.string().trim().max(300, 'At most 300 characters').default(''),
  monthly_price: minorUnits,
  annual_price: minorUnits,
  currency: currency.default('USD'),
  active: z.boolean().default(true),
  max_servers: limit('servers').default(null),
  max_webapps: limit('web apps').default(null),
  backup_storage_gb: limit('GB').default(null),
  max_team_members: limit('team members').default(null),
});

const formFields = [
  'name',
  'description',
  'monthly_price',
  'annual_price',
  'currency',
  'active',
  'max_servers',
  'max_webapps',
  'backup_storage_gb',
  'max_team_members',
] as const;

/** The admins' packages (spec s.7 Admin `admin/bizplans`; admin staff do not see Packages). */
export const bizplans = defineResource({
  name: 'bizplans',
  scope: 'panel',
  label: 'Packages',
  missing: 'No such package',
  schema: planSchema,
  input: planInput,
  paths: { list: 'admin/bizplans', one: 'admin/bizplans/{id}' },
  ops: {
    list: {
      guard: 'admin',
      sort: ['id', 'name', 'monthly_price', 'annual_price', 'created_at'],
      filters: z.object({ kind: z.enum(PLAN_KINDS).optional() }),
      summary: 'The packages, main and add-on',
    },
    get: { guard: 'admin' },
    // Not in spec s.7 (GET, by id GET, PATCH, DELETE): the main packages are the fixed plan ids
    // of s.9, but /admin/add-addon-package makes add-on packages, which needs a create.
    create: { guard: 'admin', summary: 'Add an add-on package (the main packages are fixed)' },
    update: { guard: 'admin', method: 'PATCH', summary: 'Change a package' },
    delete: {
      guard: 'admin',
      summary: 'Remove an add-on package no one uses (deactivate one in use instead)',
    },
  },
  example: {
    name: 'Extra backup storage',
    description: '100 GB more backup storage',
    monthly_price: 500,
    annual_price: 5000,
    currency: 'USD',
    active: true,
    max_servers: null,
    max_webapps: null,
    backup_storage_gb: 100,
    max_team_members: null,
  },
  ui: {
    listFields: ['name', 'kind', 'monthly_price', 'annual_price', 'active', 'max_servers'],
    formFields,
    labels: {
      monthly_price: 'Monthly price (minor units)',
      annual_price: 'Annual price (minor units)',
      active: 'Offered to new subscribers',
      max_servers: 'Servers',
      max_webapps: 'Web apps',
      backup_storage_gb: 'Backup storage (GB)',
      max_team_members: 'Team members',
    },
    help: {
      monthly_price: 'In cents (minor units of the currency): 12.00 is 1200',
      annual_price: 'In cents: 90.00 is 9000',
      max_servers: 'Empty: no limit (an add-on: what it adds; empty adds none)',
      max_webapps: 'Empty: no limit',
      backup_storage_gb: 'Empty: no limit',
      max_team_members: 'Empty: no limit',
    },
    recordRepresentation: 'name',
  },
});

/** A user's read of the packages (spec s.7 Billing): what /pricing and /subscription show. */
export const plansForUsers = defineResource({
  name: 'plans',
  label: 'Plans',
  missing: 'No such plan',
  schema: planSchema,
  paths: {},
  ops: {},
  actions: {
    offered: {
      method: 'GET',
      path: 'bizplans/users/{uid}',
      guard: 'self',
      summary: 'The packages offered to subscribers: the main plans, then the add-ons',
      response: z.object({ data: z.array(planSchema) }),
    },
    one: {
      method: 'GET',
      path: 'bizplans/{planId}/users/{uid}',
      guard: 'self',
      summary: "A package offered to subscribers, or the user's own plan",
      response: planSchema,
    },
  },
});

export const resources = {
  bizplans,
  plans: plansForUsers,
} as const satisfies Record<string, ResourceDef>;

/** No agent ops: plans live in the panel. */
export const ops = {};
