import { defineServerFeature } from '../../server/feature';
import type { ServiceDeps } from '../../server/serviceDeps';
import { CredentialCheck } from './serverCredentials';
import { thirdPartyKeyHandlers } from './serverHandlers';
import * as keysAndDns from './serverMigration';
import { ThirdPartyKeyRepository, type ThirdPartyKeyRow, findOwnedKey } from './serverRepository';

/** The repository of third-party keys and the check of a credential before it is stored. */
export interface ThirdPartyKeysServices {
  thirdPartyKeys: ThirdPartyKeyRepository;
  credentials: CredentialCheck;
}

export function createThirdPartyKeysServices(deps: ServiceDeps): ThirdPartyKeysServices {
  return {
    thirdPartyKeys: new ThirdPartyKeyRepository(deps.db, deps.box),
    credentials: new CredentialCheck(deps.config, deps.outbound),
  };
}

declare module '../../server/serviceTypes' {
  // The feature's services join `app.services` (server/services.ts).
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- members come from the extended interface
  interface Services extends ThirdPartyKeysServices {}
}

declare module '../../server/http/children' {
  // `ctx.child` of the key routes: the path's key, loaded through `{uid}`.
  interface FeatureChildRows {
    thirdpartykeys: ThirdPartyKeyRow;
  }
}

/** The panel side of third-party keys (spec 7): the user's credentials for other services. */
export const server = defineServerFeature({
  handlers: [thirdPartyKeyHandlers],
  accountChildren: { thirdpartykeys: findOwnedKey },
  // The name existing databases have recorded; it makes the DNS tables too (serverMigration.ts).
  migrations: { '0004_dns': keysAndDns },
  services: createThirdPartyKeysServices,
  emits: { 'thirdpartykey.checking': 'before' },
});
