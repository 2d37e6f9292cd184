/**
 * The firewall's tables (migration 0027_firewall): the desired state the agent renders. One
 * settings row per server, the list entries, and the temporary rules with their expiry.
 */
import type { ColumnDefinitionBuilder, Generated, Kysely } from 'kysely';
import type { Flag, Timestamp } from '../../server/db/columns';
import { flagColumn, withId } from '../../server/db/migrations/helpers';

export interface FirewallSettingsTable {
  id: Generated<number>;
  server_id: number;
  enabled: Flag;
  ddos_status: Flag;
  syn_flood_rate: number;
  syn_flood_burst: number;
  conn_limit: number;
  port_flood_hits: number;
  port_flood_seconds: number;
  /** Port lists as shown: `22,80,443,30000-30100`. */
  tcp_in: string;
  udp_in: string;
  tcp_out: string;
  udp_out: string;
  /** Denied countries, ISO 3166 alpha-2, comma-separated. */
  cc_deny: string;
  updated_at: Timestamp | null;
}

/** The admin's country ranges (`start_ip,end_ip,country_code` CSV), as nft elements. */
export interface FirewallCountryRangesTable {
  id: Generated<number>;
  country: string;
  range: string;
}

export interface FirewallCountryLoadsTable {
  id: Generated<number>;
  country: string;
  ranges: number;
  loaded_at: Timestamp;
}

export interface FirewallEntriesTable {
  id: Generated<number>;
  server_id: number;
  /** csf_allow, csf_deny or csf_ignore. */
  list: string;
  /** Normalized address or block. */
  ip: string;
  comment: string;
  created_at: Timestamp;
}

export interface FirewallTempTable {
  id: Generated<number>;
  server_id: number;
  kind: 'allow' | 'deny';
  ip: string;
  port: number | null;
  comment: string;
  ttl: number;
  expires_at: Timestamp;
  created_at: Timestamp;
}

declare module '../../server/db/schema' {
  interface Database {
    firewall_settings: FirewallSettingsTable;
    firewall_entries: FirewallEntriesTable;
    firewall_temp: FirewallTempTable;
    firewall_country_ranges: FirewallCountryRangesTable;
    firewall_country_loads: FirewallCountryLoadsTable;
  }
}

/**
 * A new server's firewall: off until its owner turns it on; CSF's usual inbound ports (web,
 * mail, FTP with Pure-FTPd's passive range) and DDoS limits; outbound left open.
 */
export const DEFAULT_SETTINGS = {
  enabled: 0,
  ddos_status: 0,
  syn_flood_rate: 100,
  syn_flood_burst: 150,
  conn_limit: 100,
  port_flood_hits: 20,
  port_flood_seconds: 5,
  tcp_in: '20-22,25,53,80,110,143,443,465,587,993,995,30000-30100',
  udp_in: '53',
  tcp_out: '',
  udp_out: '',
  cc_deny: '',
  updated_at: null,
};

const serverRef = (c: ColumnDefinitionBuilder) =>
  c.notNull().references('servers.id').onDelete('cascade');

export const migration = {
  async up(db: Kysely<unknown>) {
    await withId(db, db.schema.createTable('firewall_settings'))
      .addColumn('server_id', 'integer', (c) => serverRef(c).unique())
      .addColumn('enabled', 'integer', flagColumn(0))
      .addColumn('ddos_status', 'integer', flagColumn(0))
      .addColumn('syn_flood_rate', 'integer', (c) => c.notNull())
      .addColumn('syn_flood_burst', 'integer', (c) => c.notNull())
      .addColumn('conn_limit', 'integer', (c) => c.notNull())
      .addColumn('port_flood_hits', 'integer', (c) => c.notNull())
      .addColumn('port_flood_seconds', 'integer', (c) => c.notNull())
      .addColumn('tcp_in', 'varchar(2000)', (c) => c.notNull())
      .addColumn('udp_in', 'varchar(2000)', (c) => c.notNull())
      .addColumn('tcp_out', 'varchar(2000)', (c) => c.notNull())
      .addColumn('udp_out', 'varchar(2000)', (c) => c.notNull())
      .addColumn('cc_deny', 'varchar(1000)', (c) => c.notNull().defaultTo(''))
      .addColumn('updated_at', 'varchar(32)')
      .execute();
    await withId(db, db.schema.createTable('firewall_entries'))
      .addColumn('server_id', 'integer', serverRef)
      .addColumn('list', 'varchar(16)', (c) => c.notNull())
      .addColumn('ip', 'varchar(64)', (c) => c.notNull())
      .addColumn('comment', 'varchar(120)', (c) => c.notNull().defaultTo(''))
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addUniqueConstraint('firewall_entries_server_list_ip', ['server_id', 'list', 'ip'])
      .execute();
    await withId(db, db.schema.createTable('firewall_temp'))
      .addColumn('server_id', 'integer', serverRef)
      .addColumn('kind', 'varchar(8)', (c) => c.notNull())
      .addColumn('ip', 'varchar(64)', (c) => c.notNull())
      .addColumn('port', 'integer')
      .addColumn('comment', 'varchar(120)', (c) => c.notNull().defaultTo(''))
      .addColumn('ttl', 'integer', (c) => c.notNull())
      .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .execute();
    await withId(db, db.schema.createTable('firewall_country_ranges'))
      .addColumn('country', 'varchar(2)', (c) => c.notNull())
      .addColumn('range', 'varchar(90)', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('firewall_country_ranges_country')
      .on('firewall_country_ranges')
      .column('country')
      .execute();
    await withId(db, db.schema.createTable('firewall_country_loads'))
      .addColumn('country', 'varchar(2)', (c) => c.notNull().unique())
      .addColumn('ranges', 'integer', (c) => c.notNull())
      .addColumn('loaded_at', 'varchar(32)', (c) => c.notNull())
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('firewall_country_loads').execute();
    await db.schema.dropTable('firewall_country_ranges').execute();
    await db.schema.dropTable('firewall_temp').execute();
    await db.schema.dropTable('firewall_entries').execute();
    await db.schema.dropTable('firewall_settings').execute();
  },
};
