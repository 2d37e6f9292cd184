import { FilesPage } from './FilesPage';

/** One database backup policy and its files. */
export default function DatabaseBackupFilesPage() {
  return <FilesPage type="database" />;
}
