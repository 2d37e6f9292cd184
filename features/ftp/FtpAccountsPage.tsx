export default function FtpAccountsPage() {
  return null;
}
