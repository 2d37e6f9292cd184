import { GenericCreate } from '../../src/generic/GenericCreate';
import { planPaths } from './links';
import { CURRENCY_LABELS } from './money';
import { bizplans } from './resource';

/** /admin/add-addon-package: a package bought on top of a plan. */
export default function AdminAddonPackagePage() {
  return (
    <GenericCreate
      resource={bizplans}
      title="Add an add-on package"
      description="Bought on top of a plan; its limits are what it adds (100 GB more backup storage). Prices in minor units: 5.00 is 500."
      noun="The package"
      choiceLabels={{ currency: CURRENCY_LABELS }}
      saveLabel="Add package"
      cancelTo={planPaths.admin}
      redirectTo={() => planPaths.admin}
      failedTo={planPaths.admin}
    />
  );
}
