import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { providerFetch } from '../../server/http/providerFetch';
import { defineJob } from '../../server/jobs/define';
import type { AlertKind } from './resource';
import { webhookRefusal } from './serverSettings';
import type { AlertRow } from './serverTables';

/**
 * Sending an alert: one job per alert, transition and channel, enqueued with a key
 * (`alerts.<id>.<transition>.<channel>`), so a check that runs twice sends once, and a webhook
 * that fails is tried again without mailing again.
 */
export type Transition = 'opened' | 'closed' | `repeat${number}`;

const WORDS: Record<AlertKind, { opened: string; closed: string }> = {
  'server.offline': { opened: 'Server {s} is offline', closed: 'Server {s} is back online' },
  'disk.high': {
    opened: 'The disk of {s} is nearly full',
    closed: 'The disk of {s} is back under its threshold',
  },
  'memory.high': {
    opened: 'The memory of {s} is nearly used up',
    closed: 'The memory of {s} is back under its threshold',
  },
  'cert.expiring': {
    opened: 'The certificate of {s} expires soon',
    closed: 'The certificate of {s} no longer expires soon',
  },
  'task.failed': { opened: '{s} failed', closed: '{s} failed' },
};

/** The alert in words: a title and the lines under it. */
export function words(
  alert: Pick<AlertRow, 'kind' | 'subject' | 'detail' | 'opened_at'>,
  transition: Transition,
): { title: string; text: string } {
  const closed = transition === 'closed';
  const title = WORDS[alert.kind][closed ? 'closed' : 'opened'].replace('{s}', alert.subject);
  const prefix = closed ? 'Recovered: ' : transition.startsWith('repeat') ? 'Still: ' : '';
  const lines = closed
    ? [`Open since ${alert.opened_at}.`]
    : [alert.detail, ...(prefix ? [`Open since ${alert.opened_at}.`] : [])];
  return { title: `${prefix}${title}`, text: lines.join('\n') };
}

/** Posts `{text, content}`: Slack reads `text`, Discord `content`; both ignore the other. */
async function postWebhook(app: FastifyInstance, url: string, message: string): Promise<void> {
  const { outbound } = app.services;
  // Checked again now: the name may resolve elsewhere than when it was saved (DNS rebinding);
  // the dispatcher checks the address it connects to as well.
  const refusal = await webhookRefusal(url, outbound);
  if (refusal) throw new Error(refusal);
  const response = await providerFetch(
    'the webhook',
    url,
    {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ text: message, content: message }),
    },
    outbound,
  );
  await response.body?.cancel();
  if (!response.ok) throw new Error(`the webhook answered ${response.status}`);
}

export const deliverJob = defineJob({
  name: 'alerts.deliver',
  payload: z.object({
    alertId: z.number().int(),
    transition: z.string().regex(/^(opened|closed|repeat\d+)$/),
    channel: z.enum(['mail', 'webhook']),
  }),
  retry: { limit: 5, backoffSeconds: 30 },
  keyed: true,
  async handler({ app }, { alertId, transition, channel }) {
    const alert = await app.db
      .selectFrom('alerts')
      .innerJoin('users', 'users.id', 'alerts.user_id')
      .selectAll('alerts')
      .select('users.email')
      .where('alerts.id', '=', alertId)
      .executeTakeFirst();
    if (!alert) return { skipped: 'gone' };
    const settings = await app.services.alertSettings.of(alert.user_id);
    const { title, text } = words(alert, transition as Transition);
    if (channel === 'mail') {
      if (!settings.mail) return { skipped: 'mail off' };
      await app.services.mailer.send({
        to: alert.email,
        subject: `[Stackdeck] ${title}`,
        text: `${title}\n\n${text}\n\nAlert history: ${app.config.publicUrl}/alerts\n`,
      });
      return { sent: 'mail' };
    }
    if (!settings.webhook_url) return { skipped: 'no webhook' };
    // The URL never reaches a log line: only that the post failed, and why.
    await postWebhook(app, settings.webhook_url, `${title}\n${text}`);
    return { sent: 'webhook' };
  },
});
