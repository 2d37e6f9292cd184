import { PoliciesPage } from './PoliciesPage';

/** The backup policies of web apps. */
export default function AccountBackupsPage() {
  return <PoliciesPage type="webapp" />;
}
