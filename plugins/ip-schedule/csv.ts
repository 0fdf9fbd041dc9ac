/**
 * The schedules as CSV: `POST /v1/schedules/import` (every line checked, with its line number, before anything is
 * written; `dry_run=true` lists what would change) and `GET /v1/schedules/export` (the same columns, so an export
 * imports back unchanged). Parsing and quoting are csv-parse's and csv-stringify's.
 */
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { components } from '../../generated/validators/ip-schedule.ts';
import { compileChecker } from '../../runtime/mod.ts';
import type {
  CapstanError,
  FieldProblem,
  GroupingRecord,
  Handler,
  IpRecord,
  ScheduleStore,
} from '../../runtime/mod.ts';
import { errors } from './errors.ts';
import { eachLimited } from './limited.ts';
import type { IpWriter } from './handlers.ts';
import { canonicalIp } from './ip.ts';
import { toRecord, type GroupingInput } from './records.ts';
import type { ScheduleTable, TableFilter } from './table.ts';

const COLUMNS = [
  'ip',
  'grouping',
  'mode',
  'start_date',
  'start_volume',
  'end_date',
  'end_volume',
  'schedule',
  'algorithm',
  'interval',
  'paused',
  'properties',
] as const;
type Column = (typeof COLUMNS)[number];
const REQUIRED: readonly Column[] = ['ip', 'grouping', 'mode'];
/** Most lines one import takes: its checks and its answer stay bounded */
const MAX_LINES = 10_000;
/** A line's grouping is checked with the spec's own schema: its types, names and limits are the API's */
const checkGrouping = compileChecker({ $ref: '#/components/schemas/GroupingInput', components });
const CONCURRENCY = 16;
/** Line problems an import's error message names; the dry run lists all */
const SHOWN_PROBLEMS = 5;

interface LineError {
  line: number;
  error: string;
}

/** A line that passed its own checks */
interface Line {
  line: number;
  ip: string;
  input: GroupingInput;
}

type Change = 'create' | 'update' | 'unchanged';

export function csvHandlers(options: {
  table: ScheduleTable;
  store: ScheduleStore;
  write: IpWriter;
}): Record<string, Handler> {
  const { table, store, write } = options;
  return {
    importSchedules: async (request) => {
      const dryRun = request.query.dry_run === true;
      const { lines, problems } = readLines(request.body as Buffer);
      const byIp = new Map<string, Line[]>();
      for (const line of lines) {
        const same = byIp.get(line.ip);
        if (same) same.push(line);
        else byIp.set(line.ip, [line]);
      }
      const changes: { line: number; ip: string; grouping: string; change: Change }[] = [];
      const writes: string[] = [];
      // One listing for the whole file, not a read per IP: a file of thousands of IPs made as many round trips
      const current = new Map<string, IpRecord>();
      if (byIp.size > 0)
        for (const stored of await store.list()) if (byIp.has(stored.ip)) current.set(stored.ip, stored.record);
      for (const [ip, ipLines] of byIp) {
        const stored = current.get(ip);
        let after: IpRecord;
        try {
          after = merged(stored, ipLines);
        } catch (error) {
          problems.push({ line: ipLines[0]!.line, error: `IP "${ip}": ${(error as CapstanError).message}` });
          continue;
        }
        let writing = false;
        for (const { line, input } of ipLines) {
          const change = changeOf(stored, after, input.grouping);
          writing ||= change !== 'unchanged';
          changes.push({ line, ip, grouping: input.grouping, change });
        }
        if (writing) writes.push(ip);
      }
      problems.sort((a, b) => a.line - b.line);
      changes.sort((a, b) => a.line - b.line);
      // A dry run reports every line's problem; an import with any writes nothing and names the first few
      if (problems.length > 0 && !dryRun) {
        const shown = problems
          .slice(0, SHOWN_PROBLEMS)
          .map((p) => `line ${p.line}: ${p.error}`)
          .join('; ');
        throw errors.SCHEDULE_ERR_CSV_LINES(
          problems.length,
          `${shown}${problems.length > SHOWN_PROBLEMS ? '; …' : ''}`,
        );
      }
      if (!dryRun) {
        const busy: string[] = [];
        await eachLimited(writes, CONCURRENCY, async (ip) => {
          const ipLines = byIp.get(ip)!;
          const done = await write(ip, request.principal, (record) => ({
            next: merged(record, ipLines),
            action: record ? 'schedule.update' : 'schedule.create',
            reason: { import: true },
          }));
          if (done === 'busy') busy.push(ip);
        });
        if (busy.length > 0)
          return {
            status: 503,
            headers: { 'Retry-After': '1' },
            body: {
              error:
                'Too many concurrent writes to IPs ' +
                `"${busy.slice(0, 5).join('", "')}"${busy.length > 5 ? ' and more' : ''}: the other IPs were ` +
                'written; import the file again (what is written already shows as "unchanged")',
            },
          };
      }
      return { body: { dry_run: dryRun, changes, errors: problems } };
    },
    exportSchedules: async (request) => {
      const rows = await table.matching(request.query as TableFilter);
      const data = stringify(
        rows.map((row) => csvLine(row.ip, row.config)),
        { header: true, columns: [...COLUMNS] },
      );
      return {
        content: { type: 'text/csv; charset=utf-8', data },
        headers: { 'Content-Disposition': 'attachment; filename="schedules.csv"' },
      };
    },
  };
}

/**
 * The IP's record after its lines: a line replaces the grouping of its name (in place) or adds one. CSV has no
 * column for adaptive settings: an AUTO line replacing an adaptive grouping keeps them (and its warm-up state)
 */
function merged(record: IpRecord | undefined, lines: readonly Line[]): IpRecord {
  const inputs = new Map(lines.map((line) => [line.input.grouping, line.input]));
  const groupings: GroupingInput[] = (record?.groupings ?? []).map((g) => {
    const input = inputs.get(g.grouping);
    if (!input) return g;
    return g.adaptive && input.mode === 'AUTO' ? { ...input, adaptive: g.adaptive } : input;
  });
  const existing = new Set(record?.groupings.map((g) => g.grouping));
  for (const line of lines) if (!existing.has(line.input.grouping)) groupings.push(line.input);
  return toRecord({ groupings }, record);
}

function changeOf(before: IpRecord | undefined, after: IpRecord, grouping: string): Change {
  const old = before?.groupings.find((g) => g.grouping === grouping);
  if (!old) return 'create';
  return JSON.stringify(after.groupings.find((g) => g.grouping === grouping)) === JSON.stringify(old)
    ? 'unchanged'
    : 'update';
}

/** Each line's grouping, checked alone; what fails is a problem naming its line */
function readLines(body: Buffer): { lines: Line[]; problems: LineError[] } {
  let parsed: { record: Record<string, string>; info: { lines: number } }[];
  try {
    parsed = parse(body, {
      columns: (header: string[]) => header.map((name) => name.trim().toLowerCase()),
      bom: true,
      info: true,
      skip_empty_lines: true,
      trim: true,
      max_record_size: 1 << 20,
    });
  } catch (error) {
    throw errors.SCHEDULE_ERR_CSV((error as Error).message);
  }
  if (parsed.length > MAX_LINES)
    throw errors.SCHEDULE_ERR_CSV(
      `"${parsed.length}" lines, more than the ${MAX_LINES} one import takes: split the file`,
    );
  const header = parsed.length > 0 ? Object.keys(parsed[0]!.record) : [];
  const unknown = header.filter((name) => !(COLUMNS as readonly string[]).includes(name));
  if (unknown.length > 0)
    throw errors.SCHEDULE_ERR_CSV(`unknown column "${unknown[0]}" in line 1: use "${COLUMNS.join('", "')}"`);
  const absent = REQUIRED.filter((name) => parsed.length > 0 && !header.includes(name));
  if (absent.length > 0) throw errors.SCHEDULE_ERR_CSV(`missing column "${absent[0]}" in line 1`);
  const lines: Line[] = [];
  const problems: LineError[] = [];
  const seen = new Map<string, number>();
  for (const { record, info } of parsed) {
    const line = info.lines;
    try {
      const ip = canonicalIp(record.ip ?? '');
      if (ip === undefined) throw new Error(`Invalid IP address "${record.ip ?? ''}"`);
      const input = groupingInput(record);
      // Rules a grouping breaks alone, with the API's messages (their path is the line's own)
      try {
        toRecord({ groupings: [input] });
      } catch (error) {
        throw new Error(
          (error as Error).message.replace(/groupings\[0\]\.?/g, '').replace('""', `"${input.grouping}"`),
        );
      }
      const key = `${ip} ${input.grouping}`;
      const first = seen.get(key);
      if (first !== undefined) throw new Error(`Grouping "${input.grouping}" of IP "${ip}" is also on line ${first}`);
      seen.set(key, line);
      lines.push({ line, ip, input });
    } catch (error) {
      problems.push({ line, error: (error as Error).message });
    }
  }
  return { lines, problems };
}

/** A line's cells as a grouping, checked against the spec's `GroupingInput`; the schedule rules are `toRecord`'s */
function groupingInput(cells: Partial<Record<Column, string>>): GroupingInput {
  const cell = (name: Column) => (cells[name] === undefined || cells[name] === '' ? undefined : cells[name]);
  const grouping = cell('grouping') ?? '';
  const input: Record<string, unknown> = { grouping };
  const mode = cell('mode')?.toUpperCase();
  if (mode !== undefined) input.mode = mode;
  const [startDate, startVolume] = [cell('start_date'), cell('start_volume')];
  if (startDate !== undefined || startVolume !== undefined) {
    if (startDate === undefined) throw new Error('Missing "start_date"');
    input.start = { date: startDate, ...(startVolume === undefined ? {} : { volume: numeric(startVolume) }) };
  }
  const [endDate, endVolume] = [cell('end_date'), cell('end_volume')];
  if (endDate !== undefined || endVolume !== undefined) {
    if (endDate === undefined || endVolume === undefined)
      throw new Error(
        `Missing "${endDate === undefined ? 'end_date' : 'end_volume'}": "end_date" and "end_volume" go together`,
      );
    input.end = { date: endDate, volume: numeric(endVolume) };
  }
  const schedule = cell('schedule');
  if (schedule !== undefined)
    input.schedule = scheduleCells(schedule).map((text, index) => ({ day: index + 1, messages: numeric(text) }));
  const algorithm = cell('algorithm')?.toUpperCase();
  if (algorithm !== undefined) input.algorithm = algorithm;
  const interval = cell('interval');
  if (interval !== undefined) input.interval = numeric(interval);
  const paused = cell('paused');
  if (paused !== undefined) input.paused = { true: true, false: false }[paused.toLowerCase()] ?? paused;
  const properties = cell('properties');
  if (properties !== undefined) input.properties = jsonOr(properties);
  const problem = checkGrouping(input);
  if (!problem) return input as unknown as GroupingInput;
  if (problem.pointer === '/grouping') throw errors.SCHEDULE_ERR_GROUPING_INVALID(grouping);
  throw new Error(cellProblem(cells, problem));
}

/** The days of a `schedule` cell, `;` or space separated */
function scheduleCells(text: string): string[] {
  return text.split(/[\s;]+/).filter(Boolean);
}

/** A cell that reads as a number is one; any other text is left for the schema to refuse with its rule */
function numeric(text: string): number | string {
  return /^[+-]?\d+(\.\d+)?$/.test(text) ? Number(text) : text;
}

/** The value JSON text stands for, or the text itself when it is no JSON */
function jsonOr(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** The schema's problem in a line's terms: the column (and schedule day) and the cell's text */
function cellProblem(cells: Partial<Record<Column, string>>, problem: FieldProblem): string {
  const [field, key] = problem.pointer?.split('/').slice(1) ?? [];
  if (field === undefined) return `Invalid line: the grouping ${problem.message}`;
  if (field === 'schedule' && key !== undefined) {
    const text = scheduleCells(cells.schedule ?? '')[Number(key)];
    return `Invalid "schedule" day ${Number(key) + 1} "${text}": ${problem.message}`;
  }
  const column = (field === 'start' || field === 'end') && key !== undefined ? `${field}_${key}` : field;
  return `Invalid "${column}" "${cells[column as Column] ?? ''}": ${problem.message}`;
}

/** A grouping as the line the import reads back to the same grouping */
function csvLine(ip: string, g: GroupingRecord): Record<Column, string> {
  const manual = g.mode === 'MANUAL';
  return {
    ip,
    grouping: g.grouping,
    mode: g.mode,
    start_date: g.start.date,
    start_volume: manual ? '' : String(g.start.volume),
    end_date: manual ? '' : g.end!.date,
    end_volume: manual ? '' : String(g.end!.volume),
    schedule: manual ? g.schedule!.map((day) => day.messages).join(';') : '',
    algorithm: g.algorithm,
    interval: String(g.interval),
    paused: String(g.paused),
    properties: g.properties === null ? '' : JSON.stringify(g.properties),
  };
}
