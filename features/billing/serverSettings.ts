/**
 * Billing's settings, read through this one file: the admin's run-time settings
 * (`/admin/module-sittings`, features/panel-settings), with its defaults where none is set.
 */
export { billingSettings } from '../panel-settings/serverApi';
export type { BillingSettings } from '../panel-settings/serverApi';
