/** Schema migrations of the PostgreSQL schedule store, applied in order at start, each once */
import type { PoolClient } from 'pg';

/** The SQL of each migration; `$schema` stands for the quoted schema name. Append only: never edit one */
export const MIGRATIONS: readonly string[] = [
  `CREATE SEQUENCE $schema.ip_schedule_versions;
   CREATE TABLE $schema.ip_schedules (
     ip text COLLATE "C" PRIMARY KEY,
     record json NOT NULL,
     version bigint NOT NULL
   );`,
  `CREATE TABLE $schema.applied_policies (
     id text COLLATE "C" PRIMARY KEY,
     kind text NOT NULL,
     object json NOT NULL,
     expires bigint NOT NULL,
     level integer NOT NULL
   );`,
  // ids are UUIDv7 text: in "C" order they sort by time, so paging newest first walks the primary key backwards
  `CREATE TABLE $schema.audit_log (
     id text COLLATE "C" PRIMARY KEY,
     time timestamptz NOT NULL,
     action text NOT NULL,
     subject_ip text,
     subject_grouping text,
     subject_policy text,
     principal text NOT NULL,
     entry json NOT NULL
   );
   CREATE INDEX audit_log_time ON $schema.audit_log (time);
   CREATE INDEX audit_log_ip ON $schema.audit_log (subject_ip, id) WHERE subject_ip IS NOT NULL;
   CREATE INDEX audit_log_policy ON $schema.audit_log (subject_policy, id) WHERE subject_policy IS NOT NULL;`,
  // Why each backoff policy was applied (its explanation), kept beside it
  `ALTER TABLE $schema.applied_policies ADD COLUMN reason json;`,
  // Backoff event counts the hosts hand each other (exchangeCounts), and the claims that let one host apply a trigger
  `CREATE TABLE $schema.backoff_counts (
     seq bigserial PRIMARY KEY,
     host text NOT NULL,
     time bigint NOT NULL,
     expires bigint NOT NULL,
     data text NOT NULL
   );
   CREATE INDEX backoff_counts_expires ON $schema.backoff_counts (expires);
   CREATE TABLE $schema.backoff_claims (
     key text COLLATE "C" PRIMARY KEY,
     at bigint NOT NULL,
     expires bigint NOT NULL
   );
   CREATE INDEX backoff_claims_expires ON $schema.backoff_claims (expires);`,
];

/**
 * Brings the schema up to date inside one transaction. An advisory lock keyed on the schema makes hosts
 * starting at once take turns, so none sees a half-made schema or runs a migration twice.
 */
export async function migrate(client: PoolClient, schema: string): Promise<number> {
  const quoted = `"${schema}"`;
  await client.query('BEGIN');
  try {
    await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`capstan:schedule-store:${schema}`]);
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${quoted}`);
    await client.query(
      `CREATE TABLE IF NOT EXISTS ${quoted}.schema_migrations (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`,
    );
    const { rows } = await client.query<{ version: number | null }>(
      `SELECT max(version) AS version FROM ${quoted}.schema_migrations`,
    );
    const applied = rows[0]?.version ?? 0;
    for (let index = applied; index < MIGRATIONS.length; index++) {
      await client.query(MIGRATIONS[index]!.replaceAll('$schema', quoted));
      await client.query(`INSERT INTO ${quoted}.schema_migrations (version) VALUES ($1)`, [index + 1]);
    }
    await client.query('COMMIT');
    return MIGRATIONS.length;
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  }
}
