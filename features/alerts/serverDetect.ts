import type { FastifyInstance } from 'fastify';
import { reportSchema } from '../../resources/agent/protocol';
import { certificatesEndingBefore } from '../ssl/serverApi';
import { type AlertKind, CERT_WARNING_DAYS } from './resource';
import { closeAlert, openAlert, repeatAlert, stamp } from './serverAlerts';
import type { Settings } from './serverSettings';
import type { ConditionKind } from './serverTables';

/**
 * What the checks look at: every minute the servers (offline since when, disk and memory of the
 * last report the panel kept), every day the certificates. A condition opens an alert only once
 * it has lasted its minutes, so a server that drops and comes back within them opens nothing.
 */

const MINUTE = 60_000;
const DAY = 86_400_000;

interface ServerLine {
  id: number;
  user_id: number;
  name: string;
  connected: number;
  last_seen_at: string | null;
  live_json: string | null;
}

const KIND_OF: Record<ConditionKind, AlertKind> = {
  offline: 'server.offline',
  disk: 'disk.high',
  memory: 'memory.high',
};

/** Disk and memory in use, in percent, from the last report kept; null without one. */
function usage(live: string | null): { disk: number; memory: number } | null {
  if (!live) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(live);
  } catch {
    return null;
  }
  const report = reportSchema.safeParse(parsed);
  if (!report.success) return null;
  const { disk, memory } = report.data;
  const pct = (used: number, total: number) => (total > 0 ? (used / total) * 100 : 0);
  return { disk: pct(disk.used, disk.total), memory: pct(memory.used, memory.total) };
}

/** Whether each condition holds now (undefined: unknown, as disk and memory while offline). */
function conditionsOf(
  server: ServerLine,
  settings: Settings,
): Record<ConditionKind, { holds: boolean | undefined; minutes: number; detail: string }> {
  const online = Boolean(server.connected);
  const use = online ? usage(server.live_json) : null;
  const round = (n: number) => Math.round(n);
  return {
    offline: {
      holds: !online,
      minutes: settings.offline_minutes,
      detail: `Its agent has not been connected for more than ${settings.offline_minutes} minutes.`,
    },
    disk: {
      holds: use ? use.disk > settings.disk_percent : undefined,
      minutes: settings.disk_minutes,
      detail: use
        ? `Disk ${round(use.disk)}% used, above ${settings.disk_percent}% for ${settings.disk_minutes} minutes.`
        : '',
    },
    memory: {
      holds: use ? use.memory > settings.memory_percent : undefined,
      minutes: settings.memory_minutes,
      detail: use
        ? `Memory ${round(use.memory)}% used, above ${settings.memory_percent}% for ${settings.memory_minutes} minutes.`
        : '',
    },
  };
}

const enabled = (kind: ConditionKind, s: Settings) =>
  kind === 'offline' ? s.offline : kind === 'disk' ? s.disk : s.memory;

/** The minute check of every server that has connected once. */
export async function checkServers(app: FastifyInstance): Promise<void> {
  const now = app.services.clock();
  const servers: ServerLine[] = await app.db
    .selectFrom('servers')
    .select(['id', 'user_id', 'name', 'connected', 'last_seen_at', 'live_json'])
    .where('install_key', 'is', null)
    .execute();
  const settings = await app.services.alertSettings.ofAll(servers.map((s) => s.user_id));
  const seen = await app.db.selectFrom('alert_conditions').selectAll().execute();
  const since = new Map(seen.map((c) => [`${c.server_id} ${c.kind}`, c.since]));
  // What is open already: a minute with nothing new writes nothing.
  const openNow = await app.db
    .selectFrom('alerts')
    .select(['user_id', 'open_key'])
    .where('state', '=', 'open')
    .execute();
  const isOpen = new Set(openNow.map((a) => `${a.user_id} ${a.open_key}`));

  for (const server of servers) {
    const mine = settings.get(server.user_id)!;
    const conditions = conditionsOf(server, mine);
    for (const kind of Object.keys(conditions) as ConditionKind[]) {
      const { holds, minutes, detail } = conditions[kind];
      if (holds === undefined) continue;
      const subjectKey = `server:${server.id}`;
      const key = `${server.id} ${kind}`;
      const open = isOpen.has(`${server.user_id} ${KIND_OF[kind]} ${subjectKey}`);
      if (!holds) {
        if (since.has(key))
          await app.db
            .deleteFrom('alert_conditions')
            .where('server_id', '=', server.id)
            .where('kind', '=', kind)
            .execute();
        if (open) await closeAlert(app, server.user_id, KIND_OF[kind], subjectKey);
        continue;
      }
      let began = since.get(key);
      if (!began) {
        // Offline: since its last report when the panel has one, else since now.
        began =
          kind === 'offline' && server.last_seen_at && Date.parse(server.last_seen_at) < now
            ? server.last_seen_at
            : stamp(app);
        await app.db
          .insertInto('alert_conditions')
          .values({ server_id: server.id, kind, since: began })
          .onConflict((oc) => oc.columns(['server_id', 'kind']).doNothing())
          .execute();
      }
      if (open || !enabled(kind, mine) || now - Date.parse(began) < minutes * MINUTE) continue;
      await openAlert(app, {
        userId: server.user_id,
        kind: KIND_OF[kind],
        subjectKey,
        subject: server.name,
        detail,
        serverId: server.id,
      });
    }
  }
  await repeatOpen(app, settings);
}

/** Quiet repeats: open alerts said again once their owner's hours have passed. */
async function repeatOpen(app: FastifyInstance, known: Map<number, Settings>) {
  const open = await app.db.selectFrom('alerts').selectAll().where('state', '=', 'open').execute();
  const settings = await app.services.alertSettings.ofAll(
    open.map((a) => a.user_id).filter((id) => !known.has(id)),
  );
  for (const alert of open) {
    const hours = (known.get(alert.user_id) ?? settings.get(alert.user_id))?.repeat_hours ?? 0;
    await repeatAlert(app, alert, hours);
  }
}

/** The daily check: certificates within CERT_WARNING_DAYS of their end, and those renewed since. */
export async function checkCertificates(app: FastifyInstance): Promise<void> {
  const now = app.services.clock();
  const certs = await certificatesEndingBefore(
    app.db,
    new Date(now + CERT_WARNING_DAYS * DAY).toISOString(),
  );
  const settings = await app.services.alertSettings.ofAll(certs.map((c) => c.user_id));
  const expiring = new Set<string>();
  for (const cert of certs) {
    const end = Date.parse(cert.not_after);
    const subjectKey = `cert:${cert.id}`;
    expiring.add(`${cert.user_id} ${subjectKey}`);
    if (!settings.get(cert.user_id)!.cert_expiry) continue;
    const domain = cert.names[0] ?? `certificate ${cert.id}`;
    const days = Math.max(0, Math.floor((end - now) / DAY));
    await openAlert(app, {
      userId: cert.user_id,
      kind: 'cert.expiring',
      subjectKey,
      subject: domain,
      detail: `The certificate of ${domain} on ${cert.server_name} ends on ${cert.not_after.slice(0, 10)} (${days} days).`,
      serverId: cert.server_id,
    });
  }
  const open = await app.db
    .selectFrom('alerts')
    .select(['user_id', 'subject_key'])
    .where('state', '=', 'open')
    .where('kind', '=', 'cert.expiring')
    .execute();
  for (const alert of open)
    if (!expiring.has(`${alert.user_id} ${alert.subject_key}`))
      await closeAlert(app, alert.user_id, 'cert.expiring', alert.subject_key);
}
