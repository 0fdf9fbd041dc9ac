/** A readiness check that failed: the plugin instance (or `host`) and what its check said */
export interface NotReadyPart {
  part: string;
  error: string;
}

/** Longest one readiness check may take before it counts as failed: load balancers' probes time out in a few seconds */
const READY_TIMEOUT_MS = 2_000;

/** Runs every check at once; the parts that threw, rejected or took longer than READY_TIMEOUT_MS */
export async function notReady(
  checks: readonly { id: string; ready: () => void | Promise<void> }[],
): Promise<NotReadyPart[]> {
  const outcomes = await Promise.all(
    checks.map(async ({ id, ready }) => {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<never>((_, fail) => {
        timer = setTimeout(
          () => fail(new Error(`Readiness check took longer than ${READY_TIMEOUT_MS} ms`)),
          READY_TIMEOUT_MS,
        );
      });
      try {
        await Promise.race([Promise.resolve().then(ready), late]);
        return undefined;
      } catch (error) {
        return { part: id, error: error instanceof Error ? error.message : String(error) };
      } finally {
        clearTimeout(timer);
      }
    }),
  );
  return outcomes.filter((o) => o !== undefined);
}
