import { DNS_PROVIDERS, type DnsProviderId, type IntegrationId } from '../thirdpartykeys/api';
import type { Config } from '../../server/config';
import { fieldError, notFound } from '../../server/http/errors';
import type { OutboundPolicy } from '../../server/http/outbound';
import type {
  CredentialFields,
  ThirdPartyKeyRepository,
  ThirdPartyKeyRow,
} from '../thirdpartykeys/serverApi';
import { CloudflareProvider } from './serverCloudflare';
import { PowerDnsProvider } from './serverPowerdns';
import type { DnsProvider } from './serverProvider';

export const isDnsProvider = (integration: string): integration is DnsProviderId =>
  (DNS_PROVIDERS as readonly string[]).includes(integration);

/** DNS provider accounts (stored credentials) and the provider clients made from them. */
export class DnsAccounts {
  constructor(
    private readonly config: Config,
    private readonly keys: ThirdPartyKeyRepository,
    /** For the addresses users give; Cloudflare's is the administrator's (config). */
    private readonly outbound: OutboundPolicy,
  ) {}

  /** The client of a stored account. */
  providerFor(row: ThirdPartyKeyRow): DnsProvider {
    return this.client(row.integration, {
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

  /** Asks the provider whether the credential works (a cheap authenticated call). */
  async verify(integration: DnsProviderId, fields: CredentialFields): Promise<void> {
    await this.client(integration, fields).verify();
  }

  /** A DNS provider account of the user, by label (and provider, where the path names one). */
  async account(uid: number, label: string, provider?: DnsProviderId): Promise<ThirdPartyKeyRow> {
    const row = await this.keys.findByLabel(uid, label);
    if (!row || !isDnsProvider(row.integration) || (provider && row.integration !== provider))
      throw notFound(`No DNS provider account labelled "${label}"`);
    return row;
  }
}
