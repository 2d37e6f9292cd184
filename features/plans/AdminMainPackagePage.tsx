import { GenericEdit } from '../../src/generic/GenericEdit';
import { planPaths } from './links';
import { CURRENCY_LABELS } from './money';
import { bizplans } from './resource';

/** /admin/add-main-package/{id}: a package's name, prices and limits (PATCH admin/bizplans/{id}). */
export default function AdminMainPackagePage() {
  return (
    <GenericEdit
      resource={bizplans}
      title="Edit package"
      description="Prices are in minor units of the currency (cents): 12.00 is 1200. An empty limit is no limit."
      noun="The package"
      choiceLabels={{ currency: CURRENCY_LABELS }}
      cancelTo={planPaths.admin}
      redirectTo={() => planPaths.admin}
      failedTo={planPaths.admin}
      missingTo={planPaths.admin}
    />
  );
}
