/**
 * Roundcube's config.inc.php (hosting research 2.3): its own database, the mail servers it
 * signs in to, a generated DES key, the installer off, and the panel's single sign-on plugin. Pure: the agent writes it, tests read it.
 */
import { phpString } from '../wordpress/api';
import { PLUGIN } from './ssoPlugin';

/** A mail server as Roundcube 1.6 names it: `localhost:143`, `ssl://mail.example.com:993`. */
export const MAIL_HOST = /^((ssl|tls):\/\/)?[a-z0-9]([a-z0-9.-]{0,251}[a-z0-9])?:\d{2,5}$/;
/** Roundcube's DES key: 24 characters. */
export const DES_KEY = /^[A-Za-z0-9]{24}$/;

export interface RoundcubeConfig {
  db_name: string;
  db_user: string;
  db_password: string;
  des_key: string;
  imap_host: string;
  smtp_host: string;
  product_name: string;
  /** The app's folder: logs and temp live inside it. */
  dir: string;
}

/**
 * TLS to this server's own mail services over loopback: their certificate names the mail host,
 * never `localhost`, and the traffic never leaves the machine, so the name is not checked. A
 * remote server keeps PHP's full verification.
 */
function loopbackTls(host: string, option: 'imap_conn_options' | 'smtp_conn_options'): string[] {
  const { hostname } = new URL(host.includes('://') ? host : `tcp://${host}`);
  if (!/^(ssl|tls):\/\//.test(host) || !['localhost', '127.0.0.1'].includes(hostname)) return [];
  return [
    `$config['${option}'] = ['ssl' => ['verify_peer' => false, 'verify_peer_name' => false]];`,
  ];
}

export function roundcubeConfig(c: RoundcubeConfig): string {
  const dsn = `mysql://${c.db_user}:${encodeURIComponent(c.db_password)}@localhost/${c.db_name}`;
  return [
    '<?php',
    '// Written by Stackdeck when Roundcube was installed.',
    '$config = [];',
    `$config['db_dsnw'] = ${phpString(dsn)};`,
    `$config['imap_host'] = ${phpString(c.imap_host)};`,
    `$config['smtp_host'] = ${phpString(c.smtp_host)};`,
    "$config['smtp_user'] = '%u';",
    "$config['smtp_pass'] = '%p';",
    ...loopbackTls(c.imap_host, 'imap_conn_options'),
    ...loopbackTls(c.smtp_host, 'smtp_conn_options'),
    `$config['des_key'] = ${phpString(c.des_key)};`,
    `$config['product_name'] = ${phpString(c.product_name)};`,
    `$config['log_dir'] = ${phpString(`${c.dir}/logs/`)};`,
    `$config['temp_dir'] = ${phpString(`${c.dir}/temp/`)};`,
    "$config['enable_installer'] = false;",
    `$config['plugins'] = ['${PLUGIN}'];`,
    '',
  ].join('\n');
}
