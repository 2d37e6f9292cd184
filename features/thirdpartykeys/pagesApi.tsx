/**
 * What third-party keys offer other features' pages (lint: stackdeck/feature-api): the form
 * that connects a credential (the DNS page connects a provider account with it).
 */
export { CredentialForm } from './CredentialForm';
