import { z } from 'zod';
import { actsForSomeoneElse } from '../../server/http/caller';
import { fieldError } from '../../server/http/errors';
import { defineHandlers } from '../../server/http/handlers';
import { defineServerFeature } from '../../server/feature';
import { defineJob, defineSchedule } from '../../server/jobs/define';
import { pageOf } from '../../server/repositories/paging';
import type { ServiceDeps } from '../../server/serviceDeps';
import { HIDDEN_URL, alertSettings, alerts } from './resource';
import { alertOf, openAlert, stamp } from './serverAlerts';
import { deliverJob } from './serverDeliver';
import { checkCertificates, checkServers } from './serverDetect';
import { AlertSettingsStore, webhookRefusal } from './serverSettings';
import { migration } from './serverTables';

/** The settings of alerts, next to the panel's other services. */
export interface AlertsServices {
  alertSettings: AlertSettingsStore;
}

declare module '../../server/serviceTypes' {
  // The feature's services join `app.services` (server/services.ts).
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- members come from the extended interface
  interface Services extends AlertsServices {}
}

const alertHandlers = defineHandlers(alerts, {
  async list(ctx) {
    let rows = ctx.app.db.selectFrom('alerts').selectAll().where('user_id', '=', ctx.uid);
    if (ctx.query.state) rows = rows.where('state', '=', ctx.query.state);
    if (ctx.query.kind) rows = rows.where('kind', '=', ctx.query.kind);
    // The newest first; among alerts of one moment, the one written last (pageOf's tie-break).
    const page = await pageOf(rows, ctx.query, alerts.ops.list.sort);
    return { total: page.total, data: page.data.map(alertOf) };
  },
  actions: {},
});

const settingsHandlers = defineHandlers(alertSettings, {
  actions: {
    async read(ctx) {
      const owner = !actsForSomeoneElse(ctx.caller!, ctx.uid);
      return ctx.app.services.alertSettings.shown(ctx.uid, owner);
    },
    async save(ctx) {
      const store = ctx.app.services.alertSettings;
      const body = ctx.body;
      let url = body.webhook_url;
      // Someone else at the keyboard saw the URL hidden: sending the mask back keeps it.
      if (url === HIDDEN_URL) url = (await store.of(ctx.uid)).webhook_url;
      else if (url) {
        const refusal = await webhookRefusal(url, ctx.app.services.outbound);
        if (refusal) throw fieldError('webhook_url', refusal);
      }
      await store.save(ctx.uid, { ...body, webhook_url: url });
      return store.shown(ctx.uid, !actsForSomeoneElse(ctx.caller!, ctx.uid));
    },
  },
});

/** Every minute: servers offline, disks and memory above their thresholds; quiet repeats. */
const checkJob = defineJob({
  name: 'alerts.check',
  payload: z.object({}),
  retry: { limit: 0, backoffSeconds: 1 },
  concurrency: 1,
  async handler({ app }) {
    await checkServers(app);
  },
});

/** Every day: certificates within 14 days of their end. */
const certCheckJob = defineJob({
  name: 'alerts.cert-check',
  payload: z.object({}),
  retry: { limit: 2, backoffSeconds: 60 },
  concurrency: 1,
  async handler({ app }) {
    await checkCertificates(app);
  },
});

/** A failed task's subject begins with what it was. */
const TASK_WORDS: Record<string, string> = {
  clone: 'The clone of',
  install: 'The install of',
  gitdeploy: 'The deploy of',
  certificate: 'The certificate of',
  backup: 'The backup of',
  restore: 'The restore of',
};

export const server = defineServerFeature({
  handlers: [alertHandlers, settingsHandlers],
  migrations: { '0040_alerts': migration },
  services: (deps: ServiceDeps): AlertsServices => ({
    alertSettings: new AlertSettingsStore(deps.db, deps.box),
  }),
  jobs: [checkJob, certCheckJob, deliverJob],
  schedules: [
    defineSchedule({ name: 'alerts.check', cron: '* * * * *', job: checkJob, payload: {} }),
    defineSchedule({
      name: 'alerts.cert-check',
      cron: '15 6 * * *',
      job: certCheckJob,
      payload: {},
    }),
  ],
  on: {
    /** A removed server's open alerts close without a word: there is nothing left to recover. */
    async 'server.removing'({ server }, { app }) {
      await app.db
        .updateTable('alerts')
        .set({ state: 'closed', open_key: null, closed_at: stamp(app) })
        .where('server_id', '=', server.id)
        .where('state', '=', 'open')
        .execute();
    },
    /** A failed deploy, install, clone or certificate: one alert, said once. */
    async 'task.failed'({ task, error }, { app }) {
      const settings = await app.services.alertSettings.of(task.userId);
      if (!settings.task_failed) return;
      await openAlert(app, {
        userId: task.userId,
        kind: 'task.failed',
        subjectKey: `task:${task.id}`,
        subject: `${TASK_WORDS[task.kind] ?? 'The task'} ${task.name}`,
        detail: error ? `It ended with: ${error}` : 'It ended in failure.',
        serverId: task.serverId,
      });
    },
  },
});
