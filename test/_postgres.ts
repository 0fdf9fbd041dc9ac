/**
 * The PostgreSQL the tests use (`DATABASE_URL`, else the local `test` database), and a check that it answers. A test
 * file that needs it calls `requirePostgres()` first: without a server it ends at once with one message saying
 * where it looked and how to start one, instead of failing test by test or waiting on a pool that never connects.
 */
import { readdirSync } from 'node:fs';
import pg from 'pg';

export const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

const CONNECT_TIMEOUT_MS = 3000;

/** How CI starts the cluster (.ci/run), with this machine's version when one is installed */
function startCommand(): string {
  let version = '<version>';
  try {
    version = readdirSync('/etc/postgresql')[0] ?? version;
  } catch {
    // No Debian cluster configuration here: the placeholder stays
  }
  return `pg_ctlcluster --skip-systemctl-redirect ${version} main start`;
}

export async function requirePostgres(url = DATABASE_URL): Promise<void> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  try {
    await client.connect();
    await client.query('SELECT 1');
  } catch (error) {
    const target = new URL(url);
    process.stderr.write(
      `This test file needs PostgreSQL, which does not answer at ${target.hostname}:${target.port || 5432} ` +
        `(${(error as Error).message}). Start it (as .ci/run does: ${startCommand()}) or set DATABASE_URL to one; see the README's "Development".\n`,
    );
    process.exit(1);
  } finally {
    await client.end().catch(() => {});
  }
}

/** Drops a schema a test made, whatever it holds (tests make one of their own, named after their process) */
export async function dropSchema(schema: string, url = DATABASE_URL): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await client.end();
  }
}
