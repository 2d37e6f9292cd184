/**
 * Panel settings (spec s.2 `/admin/module-sittings`, `/admin/api`, `/admin/add-api`): what an
 * admin changes at run time (billing currency, the seller on invoices, tax rates, gateways,
 * dunning, backup storage price) and the API credentials the panel itself uses (Stripe, PayPal,
 * Vultr), their secrets sealed. Admins only: admin staff never see them (spec s.6).
 */
import { type ResourceDef, defineResource } from '../../resources/define';
import {
  apiCredentialInput,
  apiCredentialSchema,
  panelSettingsPatch,
  panelSettingsView,
} from './api';

export const panelSettings = defineResource({
  name: 'panel-settings',
  scope: 'panel',
  label: 'Panel settings',
  schema: panelSettingsView,
  paths: {},
  ops: {},
  actions: {
    read: {
      method: 'GET',
      path: 'admin/module-settings',
      guard: 'admin',
      summary:
        "The panel's run-time settings (billing, invoices' seller, tax rates, gateways, dunning, backup storage price) and mail-out (read-only: set by the environment). The spec lists no call for /admin/module-sittings: this path is the panel's own",
      response: panelSettingsView,
    },
    change: {
      method: 'PATCH',
      path: 'admin/module-settings',
      guard: 'admin',
      summary:
        "Change some of the panel's settings; each change is in the admin's activity log (the path is the panel's own, as GET's)",
      body: panelSettingsPatch,
      response: panelSettingsView,
    },
  },
});

export const apiCredentials = defineResource({
  name: 'api-credentials',
  scope: 'panel',
  label: 'API credentials',
  missing: 'No such API credential',
  params: { id: 'id' },
  schema: apiCredentialSchema,
  paths: { list: 'admin/api-credentials', one: 'admin/api-credentials/{id}' },
  ops: {
    list: {
      guard: 'admin',
      sort: ['created_at', 'provider', 'name'],
      summary:
        "The API credentials the panel uses (spec s.2 /admin/api): provider, name, the key's last 4; never a secret",
    },
    delete: { guard: 'admin', summary: 'Remove an API credential: its sealed secrets are erased' },
  },
  actions: {
    add: {
      method: 'POST',
      path: 'admin/api-credentials',
      guard: 'admin',
      summary:
        'Store an API credential (spec s.2 /admin/add-api), secrets sealed; one per provider. The answer echoes nothing secret',
      body: apiCredentialInput,
      response: apiCredentialSchema,
      status: 201,
    },
    replace: {
      method: 'PUT',
      path: 'admin/api-credentials/{id}',
      guard: 'admin',
      summary: "Replace a credential's fields (every one again, the same provider)",
      body: apiCredentialInput,
      response: apiCredentialSchema,
    },
  },
  example: {
    name: 'Stripe (test)',
    provider: 'stripe',
    secretKey: 'sk_test_51ExampleSecret0000',
    publishableKey: 'pk_test_51ExamplePublic0000',
    webhookSecret: 'whsec_ExampleSigning0000',
  },
  ui: {
    listFields: ['provider', 'name', 'key_last4', 'created_by', 'created_at'],
    recordRepresentation: 'name',
  },
});

export const resources = {
  'panel-settings': panelSettings,
  'api-credentials': apiCredentials,
} as const satisfies Record<string, ResourceDef>;

/** No agent ops: settings live in the panel. */
export const ops = {};
