/**
 * What mail offers other features, of the code every program loads (the email-authentication
 * page, DNS): import it from here, never from mail's other files. serverApi.ts holds what only
 * the panel loads (the app's mail domains with their DKIM key).
 */
export { mailAddress, mailLocalPart } from './ops';

export interface AppMailDomain {
  domain: string;
  /** The DKIM selector (`mail`): the record is `<selector>._domainkey.<domain>`. */
  selector: string;
  /** Base64 of the SPKI DER: the `p=` of the DKIM TXT record. */
  dkim_public_key: string;
  created_at: string;
}
