/** `Jo.Doe+promo@Example.com` -> `jodoe@example.com` for Gmail-like dots, else just no `+tag`. */
export function sameMailbox(a: string, b: string): boolean {
  const norm = (email: string) => {
    const [local = '', domain = ''] = email.trim().toLowerCase().split('@');
    const base = local.split('+')[0]!;
    const gmail = domain === 'gmail.com' || domain === 'googlemail.com';
    return `${gmail ? base.replace(/\./g, '') : base}@${gmail ? 'gmail.com' : domain}`;
  };
  return norm(a) === norm(b);
}
