/**
 * The skips an author gives a conformance suite, by the titles the suite prints. Each skipped test is printed with
 * its reason, since uvu's report only counts skips; a skip naming no test (a title misspelt, or one the suite renamed)
 * stops the run, since the test it meant would otherwise run unseen or the skip outlive its reason.
 */
export interface Skips {
  /** The reason `title` is skipped, printed as it is asked; undefined when the test runs */
  reason(title: string): string | undefined;
  /** Throws when a skip named none of the titles asked about */
  checkUsed(): void;
}

/** The skips of the suite `suite` (its name as printed, for messages) */
export function skipsOf(suite: string, skip: Record<string, string> = {}): Skips {
  const asked = new Set<string>();
  return {
    reason(title) {
      asked.add(title);
      const reason = Object.hasOwn(skip, title) ? skip[title] : undefined;
      if (reason !== undefined) process.stdout.write(`  skipped "${title}": ${reason}\n`);
      return reason;
    },
    checkUsed() {
      const unknown = Object.keys(skip).filter((title) => !asked.has(title));
      if (unknown.length > 0) {
        const titles = unknown.map((title) => `"${title}"`).join(', ');
        throw new Error(`Cannot skip ${titles} in ${suite}: it has no test of that title`);
      }
    },
  };
}
