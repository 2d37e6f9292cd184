import { lookup } from 'node:dns/promises';
import type { SecretBox } from '../../server/auth/secretBox';
import type { Db } from '../../server/db/database';
import { now } from '../../server/db/database';
import type { OutboundPolicy } from '../../server/http/outbound';
import {
  ALERT_DEFAULTS,
  HIDDEN_URL,
  type AlertSettings,
  type AlertSettingsInput,
  alertSettingsBody,
} from './resource';
import type { AlertSettingsRow } from './serverTables';

/** The settings as the panel uses them: the webhook URL opened. */
export type Settings = Omit<AlertSettings, 'id' | 'updated_at'>;

function fromRow(row: AlertSettingsRow, box: SecretBox): Settings {
  return {
    mail: Boolean(row.mail),
    webhook_url: row.webhook_url ? box.open(row.webhook_url) : '',
    offline: Boolean(row.offline),
    offline_minutes: row.offline_minutes,
    disk: Boolean(row.disk),
    disk_percent: row.disk_percent,
    disk_minutes: row.disk_minutes,
    memory: Boolean(row.memory),
    memory_percent: row.memory_percent,
    memory_minutes: row.memory_minutes,
    cert_expiry: Boolean(row.cert_expiry),
    task_failed: Boolean(row.task_failed),
    repeat_hours: row.repeat_hours,
  };
}

/**
 * Why the panel will not post to this URL, or null: a host that is (or resolves to) a loopback,
 * link-local or private address, unless the admin allowed it (OUTBOUND_ALLOW). A name that does
 * not resolve now is kept: the send resolves it again and checks the address it connects to.
 */
export async function webhookRefusal(
  url: string,
  outbound: OutboundPolicy,
): Promise<string | null> {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  try {
    outbound.checkUrl(url);
  } catch {
    return `${host} is a private or local address: the panel does not post there unless its administrator allows it`;
  }
  let addresses: { address: string }[];
  try {
    addresses = await lookup(host, { all: true });
  } catch {
    return null;
  }
  const refused = addresses.find((a) => !outbound.allows(host, a.address));
  return refused
    ? `${host} resolves to ${refused.address}, a private or local address: the panel does not post there unless its administrator allows it`
    : null;
}

/** A user's alert settings: one row, the defaults until they save. */
export class AlertSettingsStore {
  constructor(
    private readonly db: Db,
    private readonly box: SecretBox,
  ) {}

  async row(userId: number): Promise<AlertSettingsRow | undefined> {
    return this.db
      .selectFrom('alert_settings')
      .selectAll()
      .where('user_id', '=', userId)
      .executeTakeFirst();
  }

  /** The settings in force (the defaults when none are saved). */
  async of(userId: number): Promise<Settings> {
    const row = await this.row(userId);
    return row ? fromRow(row, this.box) : { ...ALERT_DEFAULTS };
  }

  /** Many users' settings at once (the minute check). */
  async ofAll(userIds: readonly number[]): Promise<Map<number, Settings>> {
    const found = new Map<number, Settings>();
    if (userIds.length === 0) return found;
    const rows = await this.db
      .selectFrom('alert_settings')
      .selectAll()
      .where('user_id', 'in', [...new Set(userIds)])
      .execute();
    for (const row of rows) found.set(row.user_id, fromRow(row, this.box));
    for (const id of userIds) if (!found.has(id)) found.set(id, { ...ALERT_DEFAULTS });
    return found;
  }

  /** As the API shows them: the webhook URL only to its owner. */
  async shown(userId: number, owner: boolean): Promise<AlertSettings> {
    const row = await this.row(userId);
    const settings = row ? fromRow(row, this.box) : { ...ALERT_DEFAULTS };
    const url = settings.webhook_url && !owner ? HIDDEN_URL : settings.webhook_url;
    return { ...settings, webhook_url: url, id: userId, updated_at: row?.updated_at ?? null };
  }

  async save(userId: number, input: AlertSettingsInput): Promise<void> {
    const s = alertSettingsBody.parse(input);
    const values = {
      mail: Number(s.mail),
      webhook_url: s.webhook_url ? this.box.seal(s.webhook_url) : null,
      offline: Number(s.offline),
      offline_minutes: s.offline_minutes,
      disk: Number(s.disk),
      disk_percent: s.disk_percent,
      disk_minutes: s.disk_minutes,
      memory: Number(s.memory),
      memory_percent: s.memory_percent,
      memory_minutes: s.memory_minutes,
      cert_expiry: Number(s.cert_expiry),
      task_failed: Number(s.task_failed),
      repeat_hours: s.repeat_hours,
      updated_at: now(),
    };
    await this.db
      .insertInto('alert_settings')
      .values({ user_id: userId, ...values })
      .onConflict((oc) => oc.column('user_id').doUpdateSet(values))
      .execute();
  }
}
