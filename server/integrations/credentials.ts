import { INTEGRATIONS, type IntegrationId } from '../../resources/integrations';
import type { Config } from '../config';
import type { CredentialFields, DnsAccounts } from '../dns/accounts';
import { ProviderError } from '../http/providerFetch';
import { badRequest } from '../http/errors';
import type { OutboundPolicy } from '../http/outbound';
import { verifyGithubToken, verifyHetznerToken, verifyS3Key } from './verify';

/** The check a third-party credential gets before it is stored or replaced. */
export class CredentialCheck {
  constructor(
    private readonly config: Config,
    private readonly dnsAccounts: DnsAccounts,
    /** S3 endpoints are the user's, like PowerDNS addresses. */
    private readonly outbound: OutboundPolicy,
  ) {}

  /**
   * Checks what a credential needs, and asks the provider when that is cheap (PowerDNS:
   * GET /api/v1/servers; Cloudflare: GET /user/tokens/verify; GitHub: GET /user; Hetzner Cloud:
   * GET /locations; S3: a signed ListBuckets). Answers whether it was checked; a refusal is a
   * 400 that says nothing was saved.
   */
  async check(integration: IntegrationId, fields: CredentialFields): Promise<boolean> {
    const info = INTEGRATIONS[integration];
    if (info.needsUrl && !fields.api_url) throw badRequest(`${info.name} needs its API address`);
    if (info.needsKeyId && !fields.key_id) throw badRequest(`${info.name} needs the access key id`);
    if (!info.checked) return false;
    try {
      await this.ask(integration, fields);
    } catch (error) {
      if (!(error instanceof ProviderError)) throw error;
      throw badRequest(`${error.message}; nothing was saved`);
    }
    return true;
  }

  private ask(integration: IntegrationId, fields: CredentialFields): Promise<void> {
    switch (integration) {
      case 'github':
        return verifyGithubToken(this.config.githubApiUrl, fields.secret);
      case 'hetzner':
        return verifyHetznerToken(this.config.hetznerApiUrl, fields.secret);
      case 's3':
        return verifyS3Key(fields.api_url ?? '', fields.key_id ?? '', fields.secret, this.outbound);
      case 'powerdns':
      case 'cloudflare':
        return this.dnsAccounts.verify(integration, fields);
    }
  }
}
