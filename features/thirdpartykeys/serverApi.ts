/**
 * What third-party keys offer other features, of the panel's code: they import it from here,
 * never from the other files (lint: stackdeck/feature-api). A feature that checks its providers'
 * credentials subscribes to `thirdpartykey.checking` (serverCredentials.ts).
 */
export type { CredentialFields } from './serverCredentials';
export { type NewKey, storeKey } from './serverHandlers';
export {
  ThirdPartyKeyRepository,
  type ThirdPartyKeyRow,
  findOwnedKey,
  toKeyRecord,
} from './serverRepository';
