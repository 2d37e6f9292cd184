/**
 * The agent ops of mail (issue 25) and the values they carry: the contract between the panel
 * (features/mail/server*.ts) and the agent (features/mail/agent*.ts). Postfix + Dovecot (LMTP,
 * Sieve, quota) + OpenDKIM from Debian, as ../shared/research/mail.md describes.
 *
 * Passwords: the panel hashes a mailbox password (argon2id, Dovecot's `{ARGON2ID}` scheme) before
 * anything leaves it, and keeps only that hash until the server has it, as FTP does. The agent
 * writes the hash into the domain's passwd-file; no password reaches an op, argv or a log.
 */
import { z } from 'zod';
import { op } from '../../resources/agent/opDef';
import { domainName } from '../webapps/api';

/** A mailbox's local part, lower-cased (Dovecot lower-cases logins: `auth_username_format=%Lu`). */
export const MAIL_LOCAL_PART = /^[a-z0-9](?:[a-z0-9._+-]{0,62}[a-z0-9])?$/;

export const mailLocalPart = z
  .string()
  .trim()
  .toLowerCase()
  .regex(
    MAIL_LOCAL_PART,
    'Letters, digits and . _ + -, starting and ending with a letter or digit (at most 64)',
  )
  .refine((l) => !l.includes('..'), 'No two dots in a row');

/** Any mail address (a forward target may be elsewhere): a local part we accept, then a domain. */
export const mailAddress = z
  .string()
  .trim()
  .toLowerCase()
  .max(254, 'At most 254 characters')
  .transform((text, ctx) => {
    const at = text.lastIndexOf('@');
    const local = mailLocalPart.safeParse(text.slice(0, Math.max(at, 0)));
    const domain = domainName.safeParse(text.slice(at + 1));
    if (at < 1 || !local.success || !domain.success) {
      ctx.addIssue({ code: 'custom', message: 'A mail address such as name@example.com' });
      return z.NEVER;
    }
    return `${local.data}@${domain.data}`;
  });

/** A mailbox's quota in MB: 0 is none. */
export const mailQuotaMb = z.coerce
  .number()
  .int('A whole number of MB')
  .min(0, 'At least 0 (0: no limit)')
  .max(1024 * 1024, 'At most 1,048,576 MB');

/** Dovecot's `{ARGON2ID}` scheme: an argon2id PHC string (`$argon2id$v=19$m=...$salt$hash`). */
export const mailPasswordHash = z
  .string()
  .max(200)
  .regex(
    /^\$argon2id\$v=19\$m=\d{4,7},t=\d{1,2},p=\d\$[A-Za-z0-9+/]{16,64}\$[A-Za-z0-9+/]{32,88}$/,
    'An argon2id hash',
  );

/** One mailbox as the server holds it, in its domain's passwd-file. */
export const mailboxLine = z.object({
  /** The panel's id: a line of another mailbox is never touched. */
  id: z.number().int().positive(),
  local: mailLocalPart,
  /** null: keep the hash the server has (a mailbox the server lacks then cannot be made). */
  password_hash: mailPasswordHash.nullable(),
  quota_mb: mailQuotaMb,
});

/** Where mail to an address goes besides (or instead of) its own mailbox. */
export const mailForward = z.object({
  id: z.number().int().positive(),
  /** The address on this domain: a local part, or `@` for the catch-all. */
  source: z.union([mailLocalPart, z.literal('@')]),
  targets: z.array(mailAddress).min(1).max(50),
  /** A mailbox of the same address keeps a copy (`source source,target`). */
  keep_copy: z.boolean(),
});

export const vacation = z.object({
  local: mailLocalPart,
  subject: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .refine((s) => !/[\r\n\0]/.test(s), 'One line'),
  body: z.string().min(1).max(10_000),
  /** YYYY-MM-DD, the mailbox's days on which it answers (inclusive); null: from now / no end. */
  starts: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .nullable(),
  ends: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .nullable(),
  /** Days before the same sender is answered again (Sieve `:days`). */
  days: z.number().int().min(1).max(30),
});

const smarthost = z.object({
  host: z.string().regex(/^[A-Za-z0-9.-]{1,253}$/),
  port: z.number().int().min(1).max(65535),
  /** `user:password` is the map's value: no colon in the name, no line break in either. */
  username: z
    .string()
    .min(1)
    .max(200)
    .regex(/^[^:\s]+$/, 'No colons or spaces'),
  /** Sealed at the panel, opened only for the op; written 0600 root as Postfix's sasl map. */
  password: z
    .string()
    .min(1)
    .max(200)
    .refine((p) => !/[\r\n\0]/.test(p), 'One line'),
});

const check = z.object({
  ok: z.boolean(),
  /** In words, for the user: what was found, and what to do when it fails. */
  message: z.string(),
});

export const ops = {
  /**
   * What enabling mail would meet: the host name (a FQDN, resolving to this server), its PTR,
   * whether port 25 is reachable outbound (`probe`: where to try; tests give a loopback sink).
   */
  'mail.preflight': op(
    z.object({
      hostname: z.string().max(253),
      probe: z.object({ host: z.string().max(253), port: z.number().int() }).optional(),
    }),
    z.object({ hostname: check, ptr: check, port25: check }),
    60_000,
  ),
  /**
   * Installs and configures Postfix, Dovecot and OpenDKIM (the whole dovecot.conf; main.cf by
   * `postconf -e`; submission 587/465), the vmail user, the master user for webmail (its secret
   * kept by the agent only), through a config transaction. Idempotent; `smarthost` relays out.
   */
  'mail.enable': op(
    z.object({ hostname: z.string().max(253), smarthost: smarthost.nullable() }),
    z.object({ installed: z.array(z.string()), changed: z.boolean() }),
    600_000,
  ),
  /** Stops mail and removes the panel's configuration; mail in /var/vmail stays. */
  'mail.disable': op(z.object({}), z.object({ changed: z.boolean() }), 120_000),
  /**
   * Makes a domain (vdomains, its passwd-file, a DKIM key, selector `mail`, made once and kept)
   * or changes nothing when it is there; answers the DKIM public key (base64 of the SPKI DER).
   */
  'mail.domain.set': op(
    z.object({ domain: domainName }),
    z.object({ dkim_public_key: z.string(), selector: z.literal('mail') }),
  ),
  /** Takes the domain out (maps, passwd-file, DKIM key); `delete_mail` also its mail. */
  'mail.domain.remove': op(
    z.object({ domain: domainName, delete_mail: z.boolean() }),
    z.object({ removed: z.boolean() }),
  ),
  /** Makes or changes one mailbox (passwd-file line, vmailboxes, sender_login). */
  'mail.mailbox.set': op(
    mailboxLine.extend({ domain: domainName }),
    z.object({ address: z.string() }),
  ),
  /**
   * Makes or changes many mailboxes of one domain in one write of each file (the bench's 1,000
   * mailboxes: the files are written once per call, not once per mailbox); with `forwards`, the
   * domain's whole forward set too (as `mail.forwards.set`), the maps then rebuilt once.
   */
  'mail.mailbox.set-many': op(
    z.object({
      domain: domainName,
      mailboxes: z.array(mailboxLine).min(1).max(5000),
      forwards: z.array(mailForward).max(5000).optional(),
    }),
    z.object({ count: z.number().int() }),
    300_000,
  ),
  /** Removes a mailbox; without `delete_mail` its mail is moved aside, kept for 30 days. */
  'mail.mailbox.remove': op(
    z.object({ domain: domainName, local: mailLocalPart, delete_mail: z.boolean() }),
    z.object({ removed: z.boolean() }),
  ),
  /** The domain's forwarders and catch-all, the whole set (valiases for the domain rewritten). */
  'mail.forwards.set': op(
    z.object({ domain: domainName, forwards: z.array(mailForward).max(5000) }),
    z.object({ count: z.number().int() }),
  ),
  /** A mailbox's autoresponder (Sieve vacation via `doveadm sieve put`), or none (null). */
  'mail.vacation.set': op(
    z.object({ domain: domainName, local: mailLocalPart, vacation: vacation.nullable() }),
    z.object({ active: z.boolean() }),
  ),
  /** Disk use per mailbox of a domain (bytes, and the quota use Dovecot counts). */
  'mail.usage': op(
    z.object({ domain: domainName }),
    z.array(
      z.object({
        local: z.string(),
        bytes: z.number().int(),
        quota_used_kib: z.number().int().nullable(),
        quota_limit_kib: z.number().int().nullable(),
      }),
    ),
  ),
  /** The mailboxes the server has for a domain, as the panel compares them (`?sync=true`). */
  'mail.mailbox.list': op(
    z.object({ domain: domainName }),
    z.array(z.object({ local: z.string(), quota_mb: z.number().int() })),
  ),
};
