/**
 * The mail configuration as text and argv, pure (no I/O): dovecot.conf (the whole file is
 * ours), Postfix's main.cf settings and submission services (`postconf -e/-M/-P` argv), OpenDKIM's
 * config and tables. Recipes of ../../shared/research/mail.md sections 2-4.
 */

export const MAIL_ETC = '/etc/stackdeck/mail';
export const DOMAINS_DIR = `${MAIL_ETC}/domains`;
export const TLS_DIR = `${MAIL_ETC}/tls`;
/** The webmail master user's secret: root's only, never leaves the agent. */
export const MASTER_SECRET = `${MAIL_ETC}/master.secret`;
export const MASTER_PASSWD = '/etc/dovecot/stackdeck-master.passwd';
export const MASTER_USER = 'stackdeck';
export const DOVECOT_CONF = '/etc/dovecot/dovecot.conf';
export const MAPS_DIR = '/etc/postfix/stackdeck';
export const SASL_PASSWD = `${MAPS_DIR}/sasl_passwd`;
export const OPENDKIM_CONF = '/etc/opendkim.conf';
export const OPENDKIM_DIR = '/etc/opendkim';
export const DKIM_KEYS = `${OPENDKIM_DIR}/keys`;
export const VMAIL = '/var/vmail';
export const VMAIL_UID = 5000;
export const QUOTA_STATUS = 'inet:127.0.0.1:12340';
export const DKIM_SELECTOR = 'mail';

export const passwdFile = (domain: string) => `${DOMAINS_DIR}/${domain}/passwd`;

const SPECIAL_USE: [string, string][] = [
  ['Drafts', '\\Drafts'],
  ['Sent', '\\Sent'],
  ['Trash', '\\Trash'],
  ['Spam', '\\Junk'],
  ['Archive', '\\Archive'],
];

/**
 * The whole dovecot.conf (Debian's conf.d is not included: its PAM passdb would let Unix users
 * in). `sieve` only joins the protocols when dovecot-managesieved is installed: Dovecot does not
 * start with a protocol it lacks.
 */
export function renderDovecotConf(opts: { hostname: string; managesieve: boolean }): string {
  const mailboxes = SPECIAL_USE.map(
    // `{` must end its line: `mailbox X { special_use = ...` on one line is a syntax error.
    ([name, use]) => `  mailbox ${name} {\n    special_use = ${use}\n    auto = subscribe\n  }\n`,
  ).join('');
  const managesieve = opts.managesieve
    ? `service managesieve-login {\n  inet_listener sieve {\n    address = 127.0.0.1\n    port = 4190\n  }\n}\n`
    : '';
  return `# Written by the Stackdeck agent (mail): the whole file is the panel's; changes are replaced.
protocols = imap lmtp${opts.managesieve ? ' sieve' : ''}
listen = *, ::
mail_location = maildir:~/Maildir
first_valid_uid = ${VMAIL_UID}
last_valid_uid = ${VMAIL_UID}
mail_plugins = $mail_plugins quota
auth_mechanisms = plain login
disable_plaintext_auth = yes
auth_username_format = %Lu
auth_master_user_separator = *
ssl = yes
ssl_cert = <${TLS_DIR}/fullchain.pem
ssl_key = <${TLS_DIR}/key.pem
ssl_min_protocol = TLSv1.2
log_path = syslog
passdb {
  driver = passwd-file
  args = scheme=ARGON2ID username_format=%Ln ${DOMAINS_DIR}/%Ld/passwd
}
# The webmail's master user: loopback only (allow_nets in its line), and the target must exist.
passdb {
  driver = passwd-file
  args = ${MASTER_PASSWD}
  master = yes
  result_success = continue
}
userdb {
  driver = passwd-file
  args = username_format=%Ln ${DOMAINS_DIR}/%Ld/passwd
  default_fields = uid=vmail gid=vmail home=${VMAIL}/%Ld/%Ln
}
namespace inbox {
  inbox = yes
  separator = /
${mailboxes}}
service auth {
  unix_listener /var/spool/postfix/private/auth {
    mode = 0660
    user = postfix
    group = postfix
  }
  unix_listener auth-userdb {
    mode = 0600
    user = vmail
  }
}
service lmtp {
  unix_listener /var/spool/postfix/private/dovecot-lmtp {
    mode = 0600
    user = postfix
    group = postfix
  }
}
protocol lmtp {
  mail_plugins = $mail_plugins sieve
  postmaster_address = postmaster@${opts.hostname}
}
protocol imap {
  mail_plugins = $mail_plugins imap_quota
}
${managesieve}service quota-status {
  executable = quota-status -p postfix
  inet_listener {
    address = 127.0.0.1
    port = 12340
  }
  client_limit = 1
}
plugin {
  quota = count:User quota
  quota_vsizes = yes
  quota_grace = 10%%
  quota_status_success = DUNNO
  quota_status_nouser = DUNNO
  quota_status_overquota = "552 5.2.2 Mailbox is full"
  sieve = file:~/sieve;active=~/.dovecot.sieve
  sieve_vacation_send_from_recipient = yes
  sieve_redirect_envelope_from = recipient
}
`;
}

export interface Smarthost {
  host: string;
  port: number;
  username: string;
  password: string;
}

/** main.cf as `postconf -e` argv (postconf rewrites the file itself). */
export function postconfMain(hostname: string, smarthost: Smarthost | null): string[] {
  const map = (name: string) => `hash:${MAPS_DIR}/${name}`;
  const settings: Record<string, string> = {
    myhostname: hostname,
    // Virtual domains are never in mydestination.
    mydestination: 'localhost',
    mynetworks: '127.0.0.1/32 [::1]/128',
    // Debian's "Local only" preseed sets both to error: no forward or outbound mail then.
    default_transport: 'smtp',
    relay_transport: 'relay',
    virtual_mailbox_domains: map('vdomains'),
    virtual_mailbox_maps: map('vmailboxes'),
    virtual_alias_maps: map('valiases'),
    virtual_transport: 'lmtp:unix:private/dovecot-lmtp',
    smtpd_sasl_type: 'dovecot',
    smtpd_sasl_path: 'private/auth',
    // SASL on 587/465 only (master.cf overrides).
    smtpd_sasl_auth_enable: 'no',
    smtpd_sender_login_maps: map('sender_login'),
    smtpd_relay_restrictions:
      'permit_mynetworks,permit_sasl_authenticated,reject_unauth_destination',
    smtpd_recipient_restrictions: `permit_sasl_authenticated,permit_mynetworks,reject_unauth_destination,check_policy_service ${QUOTA_STATUS}`,
    smtpd_tls_chain_files: `${TLS_DIR}/key.pem,${TLS_DIR}/fullchain.pem`,
    smtpd_tls_security_level: 'may',
    smtpd_milters: 'inet:127.0.0.1:8891',
    non_smtpd_milters: '$smtpd_milters',
    milter_default_action: 'accept',
    message_size_limit: '52428800',
    recipient_delimiter: '+',
    compatibility_level: '3.6',
    relayhost: smarthost ? `[${smarthost.host}]:${smarthost.port}` : '',
    smtp_sasl_auth_enable: smarthost ? 'yes' : 'no',
    smtp_sasl_password_maps: smarthost ? `hash:${SASL_PASSWD}` : '',
    smtp_sasl_security_options: 'noanonymous',
    smtp_tls_security_level: smarthost ? 'encrypt' : 'may',
  };
  return ['-e', ...Object.entries(settings).map(([k, v]) => `${k}=${v}`)];
}

const SUBMISSION_PARAMS = [
  'smtpd_tls_security_level=encrypt',
  'smtpd_sasl_auth_enable=yes',
  'smtpd_tls_auth_only=yes',
  'smtpd_client_restrictions=permit_sasl_authenticated,reject',
  'smtpd_relay_restrictions=permit_sasl_authenticated,reject',
  'smtpd_sender_restrictions=reject_sender_login_mismatch,permit_sasl_authenticated,reject',
  'smtpd_recipient_restrictions=permit_sasl_authenticated,reject',
  'milter_macro_daemon_name=ORIGINATING',
];

/** The submission services 587 and 465 (`postconf -M` then `-P`), each one argv. */
export function postconfMaster(): string[][] {
  const out: string[][] = [];
  for (const service of ['submission', 'submissions']) {
    out.push(['-M', `${service}/inet=${service} inet n - y - - smtpd`]);
    const params = [...SUBMISSION_PARAMS];
    // 465 speaks TLS from the first byte, where the security level "encrypt" is implied.
    if (service === 'submissions')
      params.splice(0, 1, 'smtpd_tls_wrappermode=yes', 'smtpd_tls_security_level=encrypt');
    out.push(['-P', ...params.map((p) => `${service}/inet/${p}`)]);
  }
  return out;
}

export const OPENDKIM_CONF_TEXT = `# Written by the Stackdeck agent (mail).
Syslog yes
LogWhy yes
UMask 007
UserID opendkim
PidFile /run/opendkim/opendkim.pid
Socket inet:8891@127.0.0.1
Mode sv
Canonicalization relaxed/simple
OversignHeaders From
SignatureAlgorithm rsa-sha256
KeyTable file:${OPENDKIM_DIR}/KeyTable
SigningTable refile:${OPENDKIM_DIR}/SigningTable
InternalHosts refile:${OPENDKIM_DIR}/TrustedHosts
ExternalIgnoreList refile:${OPENDKIM_DIR}/TrustedHosts
On-NoSignature accept
`;

export const TRUSTED_HOSTS = '127.0.0.1\n::1\n';

/** KeyTable (`file:`) and SigningTable (`refile:`): one line per domain, never `*@*`. */
export function renderDkimTables(domains: readonly string[]): {
  keyTable: string;
  signingTable: string;
} {
  const sorted = [...domains].sort();
  return {
    keyTable: sorted
      .map(
        (d) =>
          `${DKIM_SELECTOR}._domainkey.${d} ${d}:${DKIM_SELECTOR}:${DKIM_KEYS}/${d}/${DKIM_SELECTOR}.private\n`,
      )
      .join(''),
    signingTable: sorted.map((d) => `*@${d} ${DKIM_SELECTOR}._domainkey.${d}\n`).join(''),
  };
}
