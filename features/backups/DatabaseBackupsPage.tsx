import { PoliciesPage } from './PoliciesPage';

/** The backup policies of databases. */
export default function DatabaseBackupsPage() {
  return <PoliciesPage type="database" />;
}
