/**
 * What automatic updates offer other features' pages (lint: stackdeck/feature-api): the card
 * of the server's unattended upgrades (the services page shows it).
 */
export { AutoUpdatesCard } from './AutoUpdatesCard';
