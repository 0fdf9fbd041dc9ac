/**
 * A connection the server terminated (a failover, a restart, `pg_terminate_backend`: SQLSTATE admin_shutdown,
 * crash_shutdown). A pool hears of it only when the connection is next used, so the first statements after it meet
 * the dead connections the pool still holds; the server rolled back what such a connection had not committed, so a
 * statement that failed this way ran nothing and can run again on another connection. Codes only: the runtime does
 * not import a driver
 */
export function terminatedByServer(error: unknown): boolean {
  const code = (error as { code?: unknown } | undefined)?.code;
  return code === '57P01' || code === '57P02';
}
