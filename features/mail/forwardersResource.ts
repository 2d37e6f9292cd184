/**
 * Forwarders and catch-alls (spec s.2 "Email sidebar" /forwarders, issue 25): an address on one
 * of an app's mail domains that has no mailbox and forwards to 1..50 addresses, and a domain's
 * catch-all (at most one), which takes the mail of every address of it that is neither. Kept by
 * the panel as mailboxes are (queued while the server is offline) and sent to the server in the
 * domain's whole forward set (`mail.forwards.set`) with the mailboxes' own forwards.
 */
import { z } from 'zod';
import { defineResource, listQuery, listResponse } from '../../resources/define';
import { managedState } from '../../resources/managedState';
import { domainName } from '../webapps/api';
import { mailAddress, mailLocalPart } from './ops';

const targets = z.array(mailAddress).min(1, 'At least one address').max(50, 'At most 50 addresses');

export const forwarderSchema = z.object({
  id: z.number().int(),
  /** `local@domain`, or `@domain` for the catch-all. */
  address: z.string(),
  /** The local part, or `@` for the catch-all. */
  local: z.string(),
  domain: z.string(),
  catch_all: z.boolean(),
  targets: z.array(z.string()),
  server_id: z.number().int(),
  server_name: z.string(),
  webapp_id: z.number().int(),
  webapp_name: z.string(),
  ...managedState,
});
export type Forwarder = z.infer<typeof forwarderSchema>;

export const forwarderInput = z.object({
  /** No mailbox may have the address. */
  local: mailLocalPart,
  /** One of the app's domains. */
  domain: domainName,
  targets,
});

/** PATCH: where it forwards now (the address stays; delete and add to change it). */
export const forwarderChange = z.object({ targets });

export const catchAllInput = z.object({ domain: domainName, targets });

/** A domain of the account's apps on a server with mail, with its catch-all (or none). */
export const mailDomainSchema = z.object({
  domain: z.string(),
  server_id: z.number().int(),
  server_name: z.string(),
  webapp_id: z.number().int(),
  webapp_name: z.string(),
  catch_all: forwarderSchema.nullable(),
});
export type MailDomain = z.infer<typeof mailDomainSchema>;

const server = 'servers/{sid}/users/{uid}';
/** The app (`?wsid=`) whose domain it is: one of the route's server, loaded by the request hook. */
const app = { wsid: { of: 'webstacks', missing: 'No such web app' } } as const;
const wsid = z.object({ wsid: z.coerce.number().int().positive() });

export const mailForwarder = defineResource({
  name: 'mail-forwarder',
  label: 'Forwarders',
  parent: 'server',
  params: { fid: 'id' },
  idParam: 'fid',
  missing: 'No such forwarder',
  schema: forwarderSchema,
  input: forwarderInput,
  paths: { list: `mail-forwarder/${server}`, one: `mail-forwarder/{fid}/${server}` },
  ops: {
    create: {
      guard: 'self',
      query: wsid,
      loads: app,
      summary:
        "Add a forwarder on one of the app's (`?wsid=`) domains: an address with no mailbox (no loops)",
    },
    update: {
      guard: 'self',
      method: 'PATCH',
      body: forwarderChange,
      summary: 'Change where the forwarder (or catch-all) sends its mail (no loops)',
    },
    delete: { guard: 'self', summary: 'Remove the forwarder (or catch-all)' },
  },
  actions: {
    setCatchAll: {
      method: 'PUT',
      path: `mail-catchall/${server}`,
      guard: 'self',
      query: wsid,
      loads: app,
      body: catchAllInput,
      response: forwarderSchema,
      summary:
        "Set the catch-all of one of the app's domains: mail to an address of it with no mailbox or forwarder goes to the targets",
    },
    removeCatchAll: {
      method: 'DELETE',
      path: `mail-catchall/${server}`,
      guard: 'self',
      query: wsid.extend({ domain: domainName }),
      loads: app,
      response: z.object({ id: z.number().int(), status: z.string() }),
      summary: "Remove the catch-all of one of the app's domains (unknown addresses are refused)",
    },
  },
  example: { local: 'sales', domain: 'shop.example.com', targets: ['someone@elsewhere.example'] },
});

/** The account's forwarders and mail domains, across its servers and apps. */
export const mailForwarderAccount = defineResource({
  name: 'mail-forwarders',
  label: 'Forwarders',
  parent: 'account',
  schema: forwarderSchema,
  paths: {},
  ops: {},
  actions: {
    list: {
      method: 'GET',
      path: 'mail-forwarders/users/{uid}',
      guard: 'self',
      query: listQuery,
      response: listResponse(forwarderSchema),
      summary: 'Every forwarder of the account across its servers and apps, paged',
    },
    domains: {
      method: 'GET',
      path: 'mail-domains/users/{uid}',
      guard: 'self',
      response: z.array(mailDomainSchema),
      summary: "The domains of the account's apps on servers with mail, each with its catch-all",
    },
  },
});

export const resources = {
  'mail-forwarder': mailForwarder,
  'mail-forwarders': mailForwarderAccount,
};
