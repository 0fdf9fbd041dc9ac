import { writeSync } from 'node:fs';

/** Bytes of lines waiting for a slow reader; past it new lines are dropped rather than held */
const QUEUE_LIMIT = 4 * 1024 * 1024;
/** How soon a pipe that was full is tried again */
const RETRY_MS = 50;
const NEWLINE = Buffer.from('\n');

/**
 * Lines written straight to a file descriptor (the host's log on standard output). process.stdout raises an
 * 'error' event that kills the process when a write fails (a full disk: ENOSPC; a reader that went away: EPIPE, as
 * in `capstan serve | head`), and stays broken afterwards. Here such a line is dropped and counted, and every later
 * line tries again, so logging resumes by itself once space is freed. A pipe that is merely full (EAGAIN) keeps the
 * lines queued, up to QUEUE_LIMIT bytes, and is tried again shortly.
 */
export class LineSink {
  readonly #fd: number;
  readonly #report: (error: NodeJS.ErrnoException) => void;
  #queue: Buffer[] = [];
  #queued = 0;
  #dropped = 0;
  #failing = false;
  /** A line was cut off mid-way: the next one starts on a line of its own */
  #cut = false;
  #head = 0;
  #timer: NodeJS.Timeout | undefined;

  /** `report` hears the first failure of each run of failed writes */
  constructor(fd: number, report: (error: NodeJS.ErrnoException) => void) {
    this.#fd = fd;
    this.#report = report;
  }

  /** Lines lost so far */
  get dropped(): number {
    return this.#dropped;
  }

  write(line: string): void {
    const bytes = Buffer.from(line);
    if (this.#queued + bytes.length > QUEUE_LIMIT) {
      this.#dropped += 1;
      return;
    }
    this.#queue.push(bytes);
    this.#queued += bytes.length;
    if (this.#timer === undefined) this.#flush();
  }

  #flush(): void {
    this.#timer = undefined;
    while (this.#queue.length > 0) {
      if (this.#cut && this.#head === 0) {
        this.#queue[0] = Buffer.concat([NEWLINE, this.#queue[0]!]);
        this.#queued += NEWLINE.length;
        this.#cut = false;
      }
      const line = this.#queue[0]!;
      try {
        this.#head += writeSync(this.#fd, line, this.#head);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'EAGAIN') {
          // Unref'd: a reader that never reads again must not keep a stopped host from exiting
          this.#timer = setTimeout(() => this.#flush(), RETRY_MS).unref();
          return;
        }
        if (this.#head > 0) this.#cut = true;
        this.#shift(line);
        this.#dropped += 1;
        if (!this.#failing) this.#report(error as NodeJS.ErrnoException);
        this.#failing = true;
        continue;
      }
      if (this.#head < line.length) continue;
      this.#shift(line);
      this.#failing = false;
    }
  }

  #shift(line: Buffer): void {
    this.#queue.shift();
    this.#queued -= line.length;
    this.#head = 0;
  }
}

let stdout: LineSink | undefined;

/** The process's standard output as a LineSink, with failures noted once per run on standard error */
export function stdoutLines(): LineSink {
  return (stdout ??= new LineSink(1, (error) => {
    try {
      writeSync(
        2,
        `capstan: dropping log lines until standard output takes them again (counted in capstan_log_lines_dropped_total): ${error.message}\n`,
      );
    } catch {
      // Standard error is often the same broken pipe or full disk: nowhere left to say it
    }
  }));
}
