/**
 * What SSL offers other features, of the panel's code: they import it from here, never from the
 * other files (lint: stackdeck/feature-api).
 */
import type { Db } from '../../server/db/database';

/** A certificate as another feature sees it: whose server it is on, what it covers, its end. */
export interface EndingCertificate {
  id: number;
  /** The names it covers (the app's domains until it is issued). */
  names: string[];
  /** When it ends (ISO 8601). */
  not_after: string;
  server_id: number;
  /** The owner of its server. */
  user_id: number;
  server_name: string;
}

/**
 * The certificates that end at or before `iso` (an ISO 8601 time, as `toISOString` writes the
 * ends), with their server and its owner; one not yet issued has no end and is not among them.
 */
export async function certificatesEndingBefore(db: Db, iso: string): Promise<EndingCertificate[]> {
  const rows = await db
    .selectFrom('sslcerts')
    .innerJoin('servers', 'servers.id', 'sslcerts.server_id')
    .select([
      'sslcerts.id',
      'sslcerts.names',
      'sslcerts.not_after',
      'sslcerts.server_id',
      'servers.user_id',
      'servers.name as server_name',
    ])
    .where('sslcerts.not_after', 'is not', null)
    .where('sslcerts.not_after', '<=', iso)
    .orderBy('sslcerts.id')
    .execute();
  return rows.map((r) => ({ ...r, names: namesOf(r.names), not_after: r.not_after! }));
}

/**
 * Whether the app is served over HTTPS: its server has served a certificate for it (kept there
 * through a later refusal), and it is not being taken off.
 */
export async function appServesHttps(db: Db, webappId: number): Promise<boolean> {
  const row = await db
    .selectFrom('sslcerts')
    .select('id')
    .where('webapp_id', '=', webappId)
    .where('served', '=', 1)
    .where('status', '!=', 'deleting')
    .executeTakeFirst();
  return row !== undefined;
}

/** A certificate's names, stored as a JSON list (or, in older rows, comma-separated). */
function namesOf(stored: string): string[] {
  try {
    const parsed: unknown = JSON.parse(stored);
    if (Array.isArray(parsed)) return parsed.filter((n): n is string => typeof n === 'string');
  } catch {
    /* not JSON */
  }
  return stored.split(/[\s,]+/).filter(Boolean);
}
