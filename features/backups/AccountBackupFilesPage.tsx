import { FilesPage } from './FilesPage';

/** One web app backup policy and its files. */
export default function AccountBackupFilesPage() {
  return <FilesPage type="webapp" />;
}
