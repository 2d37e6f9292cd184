import type { Mail } from './mailer';

/** Text a user chose, on one line, without quotes that could end the quoting, and short. */
const plain = (text: string): string =>
  text
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f-\u009f"]+/g, ' ')
    .trim()
    .slice(0, 100);

/**
 * The texts of the mails the panel sends. Codes appear only here, never in logs; every code and
 * every link that carries one (or an invitation) is listed in `secrets`, so the outbox masks it.
 */
export const mails = {
  confirmAccount: (to: string, code: string, link: string): Mail => ({
    to,
    subject: 'Confirm your Stackdeck account',
    text: `Welcome to Stackdeck.\n\nYour confirmation code is ${code}\n\nEnter it at ${link}\nThe code is valid for 15 minutes.\n`,
    secrets: [code, link],
  }),
  loginCode: (to: string, code: string): Mail => ({
    to,
    subject: 'Your Stackdeck sign-in code',
    text: `Your sign-in code is ${code}\n\nIt is valid for 15 minutes. If you did not try to sign in, change your password.\n`,
    secrets: [code],
  }),
  verifyCode: (to: string, code: string): Mail => ({
    to,
    subject: 'Your Stackdeck verification code',
    text: `Your one-time code is ${code}\n\nIt is valid for 15 minutes.\n`,
    secrets: [code],
  }),
  resetPassword: (to: string, code: string, link: string): Mail => ({
    to,
    subject: 'Reset your Stackdeck password',
    text: `Your password reset code is ${code}\n\nEnter it at ${link}\nThe code is valid for 15 minutes. If you did not ask for this, ignore this mail.\n`,
    secrets: [code, link],
  }),
  /** To the owner of an address someone tried to register again (no account is made). */
  registrationAttempt: (to: string, publicUrl: string): Mail => ({
    to,
    subject: 'Someone tried to register with your address on Stackdeck',
    text:
      `Someone, maybe you, tried to create a Stackdeck account with this address. It has an ` +
      `account already, so no new one was made and nothing changed.\n\n` +
      `Sign in at ${publicUrl}/login\n` +
      `Forgot your password? Choose "Forgot password?" there: a reset code is mailed to you.\n\n` +
      `If it was not you, ignore this mail.\n`,
  }),
  loginNotice: (to: string, ip: string, userAgent: string): Mail => ({
    to,
    subject: 'New sign-in to your Stackdeck account',
    text: `Your account was signed in to from ${ip} (${userAgent}).\nIf this was not you, change your password now.\n`,
  }),
  /**
   * The subject is fixed: nothing the sender chose (their name, the server's) goes in it. The
   * body names them, quoted plainly on lines of their own.
   */
  serverTransfer: (
    to: string,
    offer: { fromName: string; fromEmail: string; server: string; link: string; days: number },
  ): Mail => ({
    to,
    subject: 'A server is offered to you on Stackdeck',
    text:
      `A Stackdeck user offers to transfer one of their servers to your account.\n\n` +
      `From:   "${plain(offer.fromName)}" <${plain(offer.fromEmail)}>\n` +
      `Server: "${plain(offer.server)}"\n\n` +
      `See the offer and accept it at ${offer.link}\n` +
      `The offer is valid for ${offer.days} days. Nothing changes unless you accept it; if you do not know the sender, ignore this mail.\n`,
    secrets: [offer.link],
  }),
  passwordChanged: (to: string): Mail => ({
    to,
    subject: 'Your Stackdeck password was changed',
    text: 'The password of your Stackdeck account was changed and every other session was signed out.\n',
  }),
};
