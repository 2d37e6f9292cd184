import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { DataProviderContext, NotificationContextProvider } from 'ra-core';
import type { ComponentType } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import AddApiCredentialPage from '../../features/panel-settings/AddApiCredentialPage';
import ModuleSettingsPage from '../../features/panel-settings/ModuleSettingsPage';
import { DEFAULT_SETTINGS, type PanelSettingsView } from '../../features/panel-settings/api';

/** The settings pages' first render, with the settings already read (no call is made). */
function render(Page: ComponentType, view?: PanelSettingsView, at = '/') {
  const queryClient = new QueryClient();
  if (view) queryClient.setQueryData(['panel-settings'], view);
  const html = renderToStaticMarkup(
    <MemoryRouter initialEntries={[at]}>
      <QueryClientProvider client={queryClient}>
        <DataProviderContext.Provider value={{} as never}>
          <NotificationContextProvider>
            <Page />
          </NotificationContextProvider>
        </DataProviderContext.Provider>
      </QueryClientProvider>
    </MemoryRouter>,
  );
  const text = html
    .replace(/<style[^>]*>[^<]*<\/style>/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ');
  return { html, text };
}

describe('settings pages', () => {
  it('/admin/module-sittings: every section, the price as a decimal of the currency, mail read-only', () => {
    const { html, text } = render(ModuleSettingsPage, {
      id: 'panel',
      settings: {
        ...DEFAULT_SETTINGS,
        currency: 'EUR',
        tax_rates: [{ country: 'DE', percent: 19 }],
        backup_price_per_gb: 25,
      },
      updated_at: '2026-11-28T12:00:00.000Z',
      updated_by: 'admin@example.com',
      mail: { smtp_configured: false, from: 'Stackdeck <no-reply@example.com>' },
    });
    for (const s of ['Billing', 'Seller on invoices', 'Tax rates', 'Mail-out', 'Save settings'])
      expect(text).toContain(s);
    expect(text).toContain('not set up');
    expect(text).toContain('by admin@example.com');
    // 25 minor units of EUR, typed as a decimal.
    expect(html).toMatch(
      /id="settings-backup-price"[^>]*value="0.25"|value="0.25"[^>]*id="settings-backup-price"/,
    );
  });

  it('/admin/add-api: the providers and the fields of the first', () => {
    const { text } = render(AddApiCredentialPage, undefined, '/admin/add-api');
    for (const s of [
      'Stripe (cards)',
      'PayPal',
      'Vultr (servers)',
      'Secret key',
      'Publishable key',
    ])
      expect(text).toContain(s);
    expect(text).toContain('Add credential');
  });
});
