import type { Db } from '../../server/db/database';
import {
  DEFAULT_SETTINGS,
  type PanelSettings,
  type PanelSettingsPatch,
  SETTING_KEYS,
  panelSettingsSchema,
} from './api';

/** What the audit calls each setting. */
const LABELS: Record<keyof PanelSettings, string> = {
  currency: 'billing currency',
  manual_instructions: 'bank transfer instructions',
  seller_name: 'seller name',
  seller_address: 'seller address',
  seller_tax_number: 'seller tax number',
  seller_email: 'seller email',
  tax_rates: 'tax rates',
  enabled_gateways: 'gateways',
  dunning_days: 'dunning days',
  grace_days: 'grace days',
  backup_price_per_gb: 'backup storage price per GB-month',
};

/** Settings whose values are long text: the audit says they changed, not what to. */
const LONG: ReadonlySet<keyof PanelSettings> = new Set(['manual_instructions', 'seller_address']);

export interface StoredSettings {
  settings: PanelSettings;
  updatedAt: string | null;
  updatedBy: string | null;
}

/**
 * The settings as stored, the defaults where none is. A stored value the schema no longer
 * takes (an older panel's) reads as its default rather than stopping billing.
 */
export async function readSettings(db: Db): Promise<StoredSettings> {
  const rows = await db.selectFrom('panel_settings').selectAll().execute();
  const raw: Record<string, unknown> = { ...DEFAULT_SETTINGS };
  let updatedAt: string | null = null;
  let updatedBy: string | null = null;
  for (const row of rows) {
    if (!(SETTING_KEYS as string[]).includes(row.key)) continue;
    const field = panelSettingsSchema.shape[row.key as keyof PanelSettings];
    const parsed = field.safeParse(JSON.parse(row.value));
    if (parsed.success) raw[row.key] = parsed.data;
    if (updatedAt === null || row.updated_at > updatedAt) {
      updatedAt = row.updated_at;
      updatedBy = row.updated_by;
    }
  }
  return { settings: raw as PanelSettings, updatedAt, updatedBy };
}

const shown = (value: unknown): string => {
  if (Array.isArray(value))
    return value.length === 0
      ? 'none'
      : value
          .map((v) =>
            typeof v === 'object' && v !== null && 'country' in v && 'percent' in v
              ? `${String(v.country)} ${String(v.percent)} %`
              : String(v),
          )
          .join(', ');
  if (value === null || value === '') return 'none';
  return String(value);
};

/** "grace days 14 → 10; seller address changed": the settings `patch` changes, in words. */
export function describeChanges(before: PanelSettings, patch: PanelSettingsPatch): string[] {
  const changes: string[] = [];
  for (const key of SETTING_KEYS) {
    if (!(key in patch) || patch[key] === undefined) continue;
    if (JSON.stringify(before[key]) === JSON.stringify(patch[key])) continue;
    changes.push(
      LONG.has(key)
        ? `${LABELS[key]} changed`
        : `${LABELS[key]} ${shown(before[key])} → ${shown(patch[key])}`,
    );
  }
  return changes;
}

/** Stores the settings `patch` changes, each its own row (an upsert on both databases). */
export async function writeSettings(
  db: Db,
  before: PanelSettings,
  patch: PanelSettingsPatch,
  who: string,
  at: string,
): Promise<void> {
  const keys = SETTING_KEYS.filter(
    (key) => patch[key] !== undefined && JSON.stringify(before[key]) !== JSON.stringify(patch[key]),
  );
  if (!keys.length) return;
  await db.transaction().execute(async (trx) => {
    for (const key of keys) {
      const value = JSON.stringify(patch[key]);
      await trx
        .insertInto('panel_settings')
        .values({ key, value, updated_by: who, updated_at: at })
        .onConflict((oc) =>
          oc.column('key').doUpdateSet({ value, updated_by: who, updated_at: at }),
        )
        .execute();
    }
  });
}
