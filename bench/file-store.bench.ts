/**
 * The embedded file store's write cost against its size: new IPs of 5 AUTO groupings each, each with its audit entry
 * (as the API writes them), written by 16 concurrent writers through the plugin API (no HTTP), until the store holds
 * 1,000, 10,000 and 50,000 IPs. At each size: new IPs/s and per-write p99 over the last writes before the size is
 * reached (compactions included), the process's RSS and its heap after a full GC (what the store holds, less the
 * ~16 MiB of loaded modules). Each variant runs in a process of its own, so RSS is its own. Baselines in the same run,
 * same writers:
 * - `rewrite`: what format 1 did, one JSON object rewritten whole (`writeFileAtomic`) per group commit; started
 *   from a state of each size in memory (filling it by writes would take hours), measured over 4 groups;
 * - `append`: a raw group-commit loop appending the same JSON lines (record and audit entry) with one fdatasync per
 *   group, the floor.
 * Then, for the store only, from 50,000 IPs on until its file (then about 70 MB) has been compacted (60,000 at
 * least; the rate is of the first 10,000, p99 and max of all): what a compaction costs the writes running beside it.
 * Goal (issue 24): at least 500 new IPs/s and p99 under 50 ms at 10,000 IPs, RSS bounded.
 */
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { groupCommit, groupingsOf, ipOf, SIZES, timeWrites, WINDOW } from './_file-store.ts';
import { row } from './_http.ts';

const WRITERS = 16;

interface Figure {
  size: number;
  rate: number;
  p99: number;
  max?: number;
  rssMiB: number;
  /** Heap used after a full GC */
  heapMiB: number;
  /** 1 when a compaction ran in the window */
  compacted?: number;
}

// The stored form: what the API answers, its defaults filled in
const record = (n: number) => ({
  groupings: groupingsOf(n, '2025-01-01', '2025-01-30').map((grouping) => ({
    ...grouping,
    paused: false,
    algorithm: 'TOKENBUCKET',
    interval: 86400,
    properties: null,
  })),
});
const run = (write: (n: number) => Promise<unknown>, from: number, to: number) => timeWrites(WRITERS, write, from, to);

const rssMiB = () => process.memoryUsage().rss / 2 ** 20;
const heapMiB = () => {
  (globalThis as unknown as { gc: () => void }).gc();
  return process.memoryUsage().heapUsed / 2 ** 20;
};
const memory = () => ({ rssMiB: rssMiB(), heapMiB: heapMiB() });

/** The audit entry of write `n`, as the host makes them (ids rising) */
const audit = (n: number) => ({
  id: `0190a000-0000-7000-8000-${String(n).padStart(12, '0')}`,
  time: new Date().toISOString(),
  action: 'schedule.create',
  subject: { ip: ipOf(n) },
  principal: 'bench',
  before: null,
  after: record(n),
  host: 'bench',
});

async function variant(name: string, folder: string): Promise<Figure[]> {
  const figures: Figure[] = [];
  if (name === 'store') {
    const { usePlugin } = await import('../runtime/mod.ts');
    type Store = import('../runtime/mod.ts').ScheduleStore;
    const { service, close } = await usePlugin<Store>({ id: 'schedule-store-file' }, { baseDir: folder });
    let stored = 0;
    for (const size of SIZES) {
      const window = Math.min(WINDOW, size / 2);
      await run(
        (n) => service.put(ipOf(n), record(n) as never, { expected: null }, { audit: audit(n) as never }),
        stored,
        size - window,
      );
      figures.push({
        size,
        ...(await run(
          (n) => service.put(ipOf(n), record(n) as never, { expected: null }, { audit: audit(n) as never }),
          size - window,
          size,
        )),
        ...memory(),
      });
      stored = size;
    }
    // A compaction renames a new file over the old one: its inode tells it ran
    const file = join(folder, 'var', 'schedule-store-file', 'schedules.json');
    const inode = (await stat(file)).ino;
    let to = 60_000;
    let compacting = await run(
      (n) => service.put(ipOf(n), record(n) as never, { expected: null }, { audit: audit(n) as never }),
      stored,
      to,
    );
    while ((await stat(file)).ino === inode && to < 100_000) {
      const more = await run(
        (n) => service.put(ipOf(n), record(n) as never, { expected: null }, { audit: audit(n) as never }),
        to,
        to + 5000,
      );
      compacting = {
        rate: compacting.rate,
        p99: Math.max(compacting.p99, more.p99),
        max: Math.max(compacting.max, more.max),
      };
      to += 5000;
    }
    figures.push({ size: to, ...compacting, ...memory(), compacted: (await stat(file)).ino === inode ? 0 : 1 });
    await close();
  } else if (name === 'append') {
    const file = await open(join(folder, 'raw.log'), 'a');
    const write = groupCommit<[number, unknown]>(async (group) => {
      await file.appendFile(
        group
          .map(
            ([n, value]) =>
              `${JSON.stringify({ ip: ipOf(n), version: n + 1, record: value })}\n${JSON.stringify({ audit: audit(n) })}\n`,
          )
          .join(''),
      );
      await file.datasync();
    });
    let stored = 0;
    for (const size of SIZES) {
      const window = Math.min(WINDOW, size / 2);
      await run((n) => write([n, record(n)]), stored, size - window);
      figures.push({ size, ...(await run((n) => write([n, record(n)]), size - window, size)), ...memory() });
      stored = size;
    }
    await file.close();
  } else {
    const { writeFileAtomic } = await import('../runtime/mod.ts');
    const path = join(folder, 'schedules.json');
    for (const size of SIZES) {
      const ips = new Map<string, unknown>();
      for (let n = 0; n < size; n++) ips.set(ipOf(n), { record: record(n), version: n + 1 });
      const write = groupCommit<[number, unknown]>(async (group) => {
        const next = new Map(ips);
        for (const [n, value] of group) next.set(ipOf(n), { record: value, version: n + 1 });
        await writeFileAtomic(
          path,
          JSON.stringify({ format: 1, sequence: size + WRITERS * 4, ips: Object.fromEntries(next) }),
        );
        for (const [key, value] of next) ips.set(key, value);
      });
      await run((n) => write([n, record(n)]), size, size + WRITERS);
      figures.push({
        size,
        ...(await run((n) => write([n, record(n)]), size + WRITERS, size + WRITERS * 5)),
        ...memory(),
      });
    }
  }
  return figures;
}

if (process.argv[2] === 'variant') {
  const folder = mkdtempSync(join(tmpdir(), 'capstan-bench-file-store-'));
  try {
    process.send!(await variant(process.argv[3]!, folder));
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
} else {
  const measure = (name: string) =>
    new Promise<Figure[]>((done, fail) => {
      const child = fork(import.meta.filename, ['variant', name], { execArgv: ['--import', 'tsx', '--expose-gc'] });
      child.once('message', (figures) => done(figures as Figure[]));
      child.once('exit', (code) => code !== 0 && fail(new Error(`variant ${name} exited with ${code}`)));
    });
  const store = await measure('store');
  const append = await measure('append');
  const rewrite = await measure('rewrite');
  console.log(
    `${WRITERS} writers, new IPs of 5 groupings; rate and p99 over the last ${WINDOW} writes before each size (rewrite: 64 writes at it)`,
  );
  for (const [at, { size, rate, p99, rssMiB: rss, heapMiB: heap }] of store.slice(0, SIZES.length).entries()) {
    const floor = append[at]!;
    const old = rewrite[at]!;
    row(
      `file store at ${size.toLocaleString('en')} IPs`,
      `${Math.round(rate)} IPs/s`,
      `p99 ${p99.toFixed(1)} ms, RSS ${Math.round(rss)} MiB, heap after GC ${Math.round(heap)} MiB; raw ` +
        `append ${Math.round(floor.rate)}/s (×${(rate / floor.rate).toFixed(2)}), p99 ${floor.p99.toFixed(1)} ms`,
    );
    row(
      `  format 1 whole-file rewrite at ${size.toLocaleString('en')}`,
      `${Math.round(old.rate)} IPs/s`,
      `p99 ${old.p99.toFixed(1)} ms, RSS ${Math.round(old.rssMiB)} MiB; file store ×${(rate / old.rate).toFixed(1)}` +
        (size === 10_000 ? `; goal ≥ 500/s, p99 < 50 ms: ${rate >= 500 && p99 < 50 ? 'met' : 'MISSED'}` : ''),
    );
  }
  const compacting = store.at(-1)!;
  row(
    `file store 50,000 → ${compacting.size.toLocaleString('en')}, compacting`,
    `${Math.round(compacting.rate)} IPs/s`,
    `p99 ${compacting.p99.toFixed(1)} ms, max ${compacting.max!.toFixed(1)} ms, RSS ${Math.round(compacting.rssMiB)} MiB; ${compacting.compacted ? 'a compaction ran' : 'NO compaction'} in the window`,
  );
}
