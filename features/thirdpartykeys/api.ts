/**
 * What third-party keys offer other features, of the code every program loads: the catalogue of
 * integrations and the shapes of a credential (lint: stackdeck/feature-api).
 */
export {
  DNS_PROVIDERS,
  type DnsProviderId,
  INTEGRATIONS,
  type IntegrationId,
  type ThirdPartyKey,
  integrationLabel,
  thirdPartyKeyInput,
  thirdPartyKeySchema,
} from './integrations';
