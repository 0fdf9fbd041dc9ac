/**
 * Log files as line chunks: plain or gzip (told by its magic bytes, so rotated `maillog.2.gz` and renamed files alike
 * work), stdin for `-`, and a `*`/`?` pattern in a name's last segment expanded when no file has that name (a shell
 * that did not expand it, or a quoted pattern). Reading is streamed: memory holds one chunk per file, whatever its
 * size.
 */
import { createReadStream } from 'node:fs';
import { open, readdir, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { pipeline } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { createGunzip } from 'node:zlib';

/** One input: a file or stdin, and the bytes of it read so far (for the progress bar) */
export interface Source {
  name: string;
  /** Bytes on disk (compressed, for gzip); undefined for stdin */
  size: number | undefined;
  readonly read: number;
  open(): AsyncGenerator<string[]>;
}

function patternRe(pattern: string): RegExp {
  return new RegExp(
    `^${pattern
      .replace(/[.+^${}()|[\]\\]/g, '\\$&')
      .replace(/\*/g, '.*')
      .replace(/\?/g, '.')}$`,
  );
}

/** The files `args` name, patterns expanded (sorted by name) */
export async function expandArgs(args: readonly string[]): Promise<string[]> {
  const files: string[] = [];
  for (const arg of args) {
    if (arg === '-' || !/[*?]/.test(basename(arg)) || (await stat(arg).catch(() => undefined))) {
      files.push(arg);
      continue;
    }
    const dir = dirname(arg);
    const re = patternRe(basename(arg));
    const matched = (await readdir(dir))
      .filter((name) => re.test(name))
      .sort()
      .map((name) => join(dir, name));
    if (matched.length === 0) throw new Error(`No file matches "${arg}"`);
    files.push(...matched);
  }
  return files;
}

/** Lines of a stream in chunks of whole lines (a trailing line without newline comes last) */
async function* lineChunks(stream: AsyncIterable<Buffer>): AsyncGenerator<string[]> {
  const decoder = new StringDecoder('utf8');
  let carry = '';
  for await (const buffer of stream) {
    const text = carry + decoder.write(buffer);
    const lines = text.split('\n');
    carry = lines.pop()!;
    if (lines.length > 0) yield lines;
  }
  carry += decoder.end();
  if (carry !== '') yield [carry];
}

async function isGzip(path: string): Promise<boolean> {
  const handle = await open(path, 'r');
  try {
    const magic = Buffer.alloc(2);
    const { bytesRead } = await handle.read(magic, 0, 2, 0);
    return bytesRead === 2 && magic[0] === 0x1f && magic[1] === 0x8b;
  } finally {
    await handle.close();
  }
}

/** A source for each of `files` (`-`: stdin) */
export async function sources(files: readonly string[], stdin: NodeJS.ReadableStream): Promise<Source[]> {
  return Promise.all(
    files.map(async (file): Promise<Source> => {
      if (file === '-') {
        return { name: 'stdin', size: undefined, read: 0, open: () => lineChunks(stdin as AsyncIterable<Buffer>) };
      }
      let size: number;
      let gzip: boolean;
      try {
        ({ size } = await stat(file));
        gzip = await isGzip(file);
      } catch (error) {
        throw new Error(`Cannot read "${file}": ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
      }
      let raw: ReturnType<typeof createReadStream> | undefined;
      return {
        name: file,
        size,
        // Read off the stream, not counted in a 'data' listener: one would switch it to flowing, and a fast disk would
        // then fill memory with chunks the replay has not reached
        get read() {
          return raw?.bytesRead ?? 0;
        },
        open() {
          raw = createReadStream(file, { highWaterMark: 256 * 1024 });
          // pipeline passes a read error on to the gunzip stream, so the reading loop sees it
          return lineChunks(gzip ? pipeline(raw, createGunzip(), () => {}) : raw);
        },
      };
    }),
  );
}
