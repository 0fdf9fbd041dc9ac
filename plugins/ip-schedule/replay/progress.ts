/** A one-line progress bar on a terminal's stderr: bytes read of the files' total, or lines read for stdin */
import type { Source } from './input.ts';

const REDRAW_MS = 200;
const WIDTH = 30;

export function progressBar(
  stderr: { write(text: string): unknown; readonly isTTY?: boolean },
  sources: readonly Source[],
): { update(lines: number): void; done(): void } {
  if (!stderr.isTTY) return { update: () => {}, done: () => {} };
  const total = sources.every((s) => s.size !== undefined) ? sources.reduce((sum, s) => sum + s.size!, 0) : undefined;
  let drawn = 0;
  return {
    update(lines) {
      const now = Date.now();
      if (now - drawn < REDRAW_MS) return;
      drawn = now;
      const read = sources.reduce((sum, s) => sum + s.read, 0);
      const count = `${lines.toLocaleString('en-US')} lines`;
      if (total === undefined || total === 0) {
        stderr.write(`\r${count}`);
        return;
      }
      const share = Math.min(1, read / total);
      const filled = Math.round(share * WIDTH);
      stderr.write(
        `\r[${'#'.repeat(filled)}${'.'.repeat(WIDTH - filled)}] ${(share * 100).toFixed(0).padStart(3)}% ${count}`,
      );
    },
    done: () => stderr.write('\r\x1b[K'),
  };
}
