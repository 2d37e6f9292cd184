import type { FastifyInstance } from 'fastify';
import type { Config } from '../../server/config';
import { emit } from '../../server/events/emit';
import type { Before } from '../../server/events/types';
import { badRequest } from '../../server/http/errors';
import type { OutboundPolicy } from '../../server/http/outbound';
import { ProviderError } from '../../server/http/providerFetch';
import { INTEGRATIONS, type IntegrationId } from './integrations';
import { verifyGithubToken, verifyHetznerToken, verifyS3Key } from './serverVerify';

/** What a credential is made of, before it is sealed. */
export interface CredentialFields {
  api_url: string | null;
  key_id: string | null;
  secret: string;
}

declare module '../../server/events/types' {
  interface PanelEvents {
    /**
     * A credential of an integration this feature does not check itself (a DNS provider's) is
     * about to be stored: the feature that talks to that provider asks it (a cheap
     * authenticated call) and calls `checked()`; a ProviderError refuses the credential.
     */
    'thirdpartykey.checking': Before<{
      integration: IntegrationId;
      fields: CredentialFields;
      checked: () => void;
    }>;
  }
}

/** The check a third-party credential gets before it is stored or replaced. */
export class CredentialCheck {
  constructor(
    private readonly config: Config,
    /** S3 endpoints are the user's, like PowerDNS addresses. */
    private readonly outbound: OutboundPolicy,
  ) {}

  /**
   * Checks what a credential needs, and asks the provider when that is cheap (GitHub: GET /user;
   * Hetzner Cloud: GET /locations; S3: a signed ListBuckets; the DNS providers through their
   * feature, on `thirdpartykey.checking`). Answers whether it was checked; a refusal is a 400
   * that says nothing was saved.
   */
  async check(
    app: FastifyInstance,
    integration: IntegrationId,
    fields: CredentialFields,
  ): Promise<boolean> {
    const info = INTEGRATIONS[integration];
    if (info.needsUrl && !fields.api_url) throw badRequest(`${info.name} needs its API address`);
    if (info.needsKeyId && !fields.key_id) throw badRequest(`${info.name} needs the access key id`);
    if (!info.checked) return false;
    try {
      const own = this.own(integration, fields);
      if (own) {
        await own;
        return true;
      }
      let checked = false;
      await emit(app, 'thirdpartykey.checking', {
        integration,
        fields,
        checked: () => void (checked = true),
      });
      return checked;
    } catch (error) {
      if (!(error instanceof ProviderError)) throw error;
      throw badRequest(`${error.message}; nothing was saved`);
    }
  }

  /** The providers this feature asks itself; undefined for the others. */
  private own(integration: IntegrationId, fields: CredentialFields): Promise<void> | undefined {
    switch (integration) {
      case 'github':
        return verifyGithubToken(this.config.githubApiUrl, fields.secret);
      case 'hetzner':
        return verifyHetznerToken(this.config.hetznerApiUrl, fields.secret);
      case 's3':
        return verifyS3Key(fields.api_url ?? '', fields.key_id ?? '', fields.secret, this.outbound);
      default:
        return undefined;
    }
  }
}
