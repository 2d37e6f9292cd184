import {
  DNS_PROVIDERS,
  type DnsProviderId,
  INTEGRATIONS,
  type IntegrationId,
} from '../../resources/integrations';
import type { Config } from '../config';
import { badRequest, fieldError, notFound } from '../http/errors';
import { type OutboundPolicy, outboundPolicy } from '../http/outbound';
import type { ThirdPartyKeyRepository, ThirdPartyKeyRow } from '../repositories/thirdPartyKeys';
import { verifyGithubToken, verifyHetznerToken, verifyS3Key } from '../integrations/verify';
import { CloudflareProvider } from './cloudflare';
import { PowerDnsProvider } from './powerdns';
import { type DnsProvider, DnsProviderError } from './provider';

const isDnsProvider = (integration: string): integration is DnsProviderId =>
  (DNS_PROVIDERS as readonly string[]).includes(integration);

export interface CredentialFields {
  api_url: string | null;
  key_id: string | null;
  secret: string;
}

/** DNS provider accounts (stored credentials) and the provider clients made from them. */
export class DnsAccounts {
  /** For the addresses users give; Cloudflare's is the administrator's (config). */
  private readonly outbound: OutboundPolicy;

  constructor(
    private readonly config: Config,
    private readonly keys: ThirdPartyKeyRepository,
  ) {
    this.outbound = outboundPolicy(config.outboundAllow);
  }

  /** Closes the pooled connections to user-given addresses. */
  async close(): Promise<void> {
    await this.outbound.dispatcher.close();
  }

  /** The client of a stored account. */
  providerFor(row: ThirdPartyKeyRow): DnsProvider {
    return this.client(row.integration as IntegrationId, {
      api_url: row.api_url,
      key_id: row.key_id,
      secret: this.keys.secretOf(row),
    });
  }

  private client(integration: IntegrationId, fields: CredentialFields): DnsProvider {
    if (integration === 'powerdns') {
      if (!fields.api_url) throw fieldError('api_url', 'PowerDNS needs its API address');
      return new PowerDnsProvider(fields.api_url, fields.secret, this.outbound);
    }
    if (integration === 'cloudflare')
      return new CloudflareProvider(this.config.cloudflareApiUrl, fields.secret);
    throw new Error(`${integration} is not a DNS provider`);
  }

  /**
   * Checks what a credential of any integration needs, and asks the provider when that is cheap
   * (PowerDNS: GET /api/v1/servers; Cloudflare: GET /user/tokens/verify; GitHub: GET /user;
   * Hetzner Cloud: GET /locations; S3: a signed ListBuckets). Answers whether it was checked.
   */
  async checkCredential(integration: IntegrationId, fields: CredentialFields): Promise<boolean> {
    const info = INTEGRATIONS[integration];
    if (info.needsUrl && !fields.api_url) throw badRequest(`${info.name} needs its API address`);
    if (info.needsKeyId && !fields.key_id) throw badRequest(`${info.name} needs the access key id`);
    if (!info.checked) return false;
    try {
      if (integration === 'github')
        await verifyGithubToken(this.config.githubApiUrl, fields.secret);
      else if (integration === 'hetzner')
        await verifyHetznerToken(this.config.hetznerApiUrl, fields.secret);
      else if (integration === 's3')
        await verifyS3Key(fields.api_url!, fields.key_id!, fields.secret, this.outbound);
      else await this.client(integration, fields).verify();
    } catch (error) {
      if (!(error instanceof DnsProviderError)) throw error;
      throw badRequest(`${error.message}; nothing was saved`);
    }
    return true;
  }

  /** A DNS provider account of the user, by label (and provider, where the path names one). */
  async account(uid: number, label: string, provider?: DnsProviderId): Promise<ThirdPartyKeyRow> {
    const row = await this.keys.findByLabel(uid, label);
    if (!row || !isDnsProvider(row.integration) || (provider && row.integration !== provider))
      throw notFound(`No DNS provider account labelled "${label}"`);
    return row;
  }
}
