/**
 * Single sign-on from the panel into a Roundcube app (issue 25; research mail.md s.6): the
 * mailboxes of the app's server its owner may open there, and a token that opens one. The spec
 * names no call for it; it sits under the app (`{appId}`). As the webmail, it is the mailbox
 * owner's alone: a team member who manages the server, an admin, or an admin acting for the
 * user is refused (hestiacp#523); every sign-on is in the account's activity log.
 */
import { z } from 'zod';
import { defineResource } from '../../resources/define';
import { op } from '../../resources/agent/opDef';
import { systemUserName } from '../../resources/agent/validators';
import { installAppName } from '../installers/api';
import { SSO_KEY } from './ssoPlugin';

declare module '../../resources/declaration' {
  interface QueryRowKinds {
    /** A mailbox of the route's `{sid}` server (`mailbox_id` of the Roundcube sign-on). */
    'mail-user': 'server';
  }
}

export const ssoMailbox = z.object({
  id: z.number().int(),
  address: z.string(),
  status: z.string(),
});

export const ssoState = z.object({
  /** Where the app answers (https once it has a certificate). */
  url: z.string(),
  /** The server's mailboxes, every app's: Roundcube signs in to the server's own mail. */
  mailboxes: z.array(ssoMailbox),
  /** Whether the caller may open them: the server's owner, not an admin acting for them. */
  can_open: z.boolean(),
});
export type RoundcubeSsoState = z.infer<typeof ssoState>;

export const ssoOpenInput = z.object({
  mailbox_id: z
    .number({ message: 'The id of a mailbox of this server' })
    .int('The id of a mailbox of this server')
    .positive('The id of a mailbox of this server'),
});

export const ssoOpenAnswer = z.object({
  /** Where to post the token (as `_sso`, from a form: never in a query string). */
  url: z.string(),
  token: z.string(),
  expires_at: z.string(),
  address: z.string(),
});
export type RoundcubeSsoOpen = z.infer<typeof ssoOpenAnswer>;

/**
 * The panel's page that posts a token to Roundcube (outside the API; serverLaunch.ts): the
 * token rides in its fragment, which no server sees, and the page's own CSP lets its form post
 * to that app alone (the panel's pages may post only to the panel).
 */
export const LAUNCH_PATH = '/roundcube-sso/launch';
/** Where a Roundcube app answers, as `url` says it: its scheme and host, nothing else. */
export const APP_ORIGIN = /^https?:\/\/[a-z0-9]([a-z0-9.-]{0,251}[a-z0-9])?(:\d{2,5})?\/$/;

/** The launcher's address for a token (the token in the fragment). */
export const launchUrl = (url: string, token: string) =>
  `${LAUNCH_PATH}?to=${encodeURIComponent(url)}#${token}`;

const path = 'roundcube-sso/{appId}/servers/{sid}/users/{uid}';

/** Opening a mailbox is for its owner alone: no team member, no admin, acting or not. */
const owner = {
  guard: 'self',
  forbidWhileActing: true,
  ownerOnly: 'open its mailboxes in Roundcube',
} as const;

export const roundcubeSso = defineResource({
  name: 'roundcube-sso',
  label: 'Roundcube sign-in',
  parent: 'app',
  schema: ssoState,
  paths: {},
  ops: {},
  actions: {
    state: {
      method: 'GET',
      path,
      guard: 'self',
      response: ssoState,
      summary:
        "The Roundcube app's address, the mailboxes of its server, and whether the caller may open them there",
    },
    open: {
      method: 'POST',
      path,
      ...owner,
      body: ssoOpenInput,
      bodyLoads: {
        mailbox_id: { of: 'mail-user', missing: 'No mailbox #{mailbox_id} on this server' },
      },
      response: ssoOpenAnswer,
      summary:
        'A token (one use, a minute) that signs the Roundcube app in as the mailbox: post it as `_sso` to `url` (logged)',
    },
  },
});

export const ssoOps = {
  /**
   * Puts the stackdeck_sso plugin in the app (plugins/stackdeck_sso, enabled in config.inc.php)
   * and its settings in the app's private folder (0700, the file 0600: the app's user alone):
   * the panel's signing key and the server's Dovecot master login. Idempotent: what is already
   * so is not written again. `mail` is false while the server has no master secret yet.
   */
  'roundcube.sso.set': op(
    z.object({
      user: systemUserName,
      app: installAppName,
      app_id: z.number().int().positive(),
      key: z.string().regex(SSO_KEY),
    }),
    z.object({ changed: z.boolean(), mail: z.boolean() }),
  ),
};
