import fs from 'node:fs/promises';
import { opFieldError } from '../../agent/lib/opError';
import { defineAgentFeature } from '../../agent/ops/types';
import { DOMAINS_DIR, VMAIL } from './agentConfigs';
import { ensureDkimKey, removeDkimKey, syncDkim } from './agentDkim';
import { disableMail, enableMail } from './agentEnable';
import { syncMaps } from './agentMaps';
import {
  putMailAside,
  removeMailbox,
  requireDomain,
  requireEnabled,
  setMailboxes,
} from './agentMailboxes';
import { preflight } from './agentPreflight';
import { listDomains, makeDomainDir, readMailboxes, writeForwards } from './agentState';
import { usage } from './agentUsage';
import { closeWebmailSessions, webmailImpl } from './agentWebmailOps';
import { refreshAllVacations, setVacation, vacationLocals } from './agentVacation';
import { ops } from './resource';

/** Mail: every op that writes holds `mail`: the maps are rendered from all domains at once. */
const MAIL_LOCK = () => ['mail'];

export const agent = defineAgentFeature(ops, {
  ops: {
    'mail.preflight': ({ hostname, probe }) => preflight(hostname, probe),

    'mail.enable': ({ hostname, smarthost }) => enableMail(hostname, smarthost),

    async 'mail.disable'() {
      await closeWebmailSessions();
      return disableMail();
    },

    async 'mail.domain.set'({ domain }) {
      await requireEnabled();
      await makeDomainDir(domain);
      const key = await ensureDkimKey(domain);
      await syncMaps();
      await syncDkim();
      return { dkim_public_key: key, selector: 'mail' as const };
    },

    async 'mail.domain.remove'({ domain, delete_mail }) {
      await requireEnabled();
      if (!(await listDomains()).includes(domain)) return { removed: false };
      for (const local of await vacationLocals(domain))
        await setVacation(domain, local, null).catch(() => undefined);
      await fs.rm(`${DOMAINS_DIR}/${domain}`, { recursive: true, force: true });
      await syncMaps();
      await syncDkim();
      await removeDkimKey(domain);
      await putMailAside(`${VMAIL}/${domain}`, domain, delete_mail);
      return { removed: true };
    },

    async 'mail.mailbox.set'({ domain, ...line }) {
      await setMailboxes(domain, [line]);
      return { address: `${line.local}@${domain}` };
    },

    async 'mail.mailbox.set-many'({ domain, mailboxes, forwards }) {
      await setMailboxes(domain, mailboxes, (f) => `mailboxes.${f}`, forwards);
      return { count: mailboxes.length };
    },

    async 'mail.mailbox.remove'({ domain, local, delete_mail }) {
      return { removed: await removeMailbox(domain, local, delete_mail) };
    },

    async 'mail.forwards.set'({ domain, forwards }) {
      await requireDomain(domain);
      // The panel sends the whole set with every mailbox change: the same set changes nothing.
      if (!(await writeForwards(domain, forwards))) return { count: forwards.length };
      await syncMaps();
      await refreshAllVacations();
      return { count: forwards.length };
    },

    async 'mail.vacation.set'({ domain, local, vacation }) {
      await requireDomain(domain);
      if (!(await readMailboxes(domain)).some((m) => m.local === local))
        throw opFieldError('local', `The server has no mailbox ${local}@${domain}`);
      return setVacation(domain, local, vacation);
    },

    async 'mail.usage'({ domain }) {
      await requireDomain(domain);
      return usage(domain);
    },

    async 'mail.mailbox.list'({ domain }) {
      await requireDomain(domain);
      return (await readMailboxes(domain)).map((m) => ({ local: m.local, quota_mb: m.quotaMb }));
    },

    ...webmailImpl,
  },
  locks: {
    'mail.enable': MAIL_LOCK,
    'mail.disable': MAIL_LOCK,
    'mail.domain.set': MAIL_LOCK,
    'mail.domain.remove': MAIL_LOCK,
    'mail.mailbox.set': MAIL_LOCK,
    'mail.mailbox.set-many': MAIL_LOCK,
    'mail.mailbox.remove': MAIL_LOCK,
    'mail.forwards.set': MAIL_LOCK,
    'mail.vacation.set': MAIL_LOCK,
  },
});
