/**
 * What system users offer other features' pages (lint: stackdeck/feature-api): the card that
 * makes a system user (the web app and account wizards make their owner with it).
 */
export { CreateSysuserCard } from './CreateSysuserCard';
