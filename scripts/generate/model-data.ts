import { Compile } from 'typebox/schema';
import { pointerSegment, SpecError, type SpecFile } from './spec-file.ts';
import { IDENTIFIER } from './names.ts';

const CONST_NAME = /^[A-Z][A-Z0-9_]*$/;

/** A table keyed by the values of an enum, in the enum's order (`x-table`) */
export interface TableModel {
  name: string;
  rows: Record<string, unknown>;
}

/** An enum schema that code imports by name (`x-const`) */
export interface ConstModel {
  /** The schema's name, which also names the union of its values */
  type: string;
  name: string;
  pointer: string;
  values: string[];
  table?: TableModel;
}

/** What an API's spec gives code as data rather than as types */
export interface DataModel {
  name: string;
  source: string;
  consts: ConstModel[];
}

function constName(spec: SpecFile, value: unknown, pointer: string, seen: Set<string>): string {
  if (typeof value !== 'string' || !CONST_NAME.test(value))
    throw new SpecError(spec.file, pointer, `expected an UPPER_SNAKE_CASE name, found ${JSON.stringify(value)}`);
  if (seen.has(value)) throw new SpecError(spec.file, pointer, `duplicate name "${value}"`);
  seen.add(value);
  return value;
}

/** The table's rows must name every value once, in the enum's order, and each must match the `row` schema */
function tableModel(spec: SpecFile, table: any, values: string[], pointer: string, seen: Set<string>): TableModel {
  const name = constName(spec, table?.const, `${pointer}/const`, seen);
  const rows = table.rows;
  if (typeof rows !== 'object' || rows === null || Array.isArray(rows))
    throw new SpecError(spec.file, `${pointer}/rows`, 'rows must be an object keyed by the enum values');
  if (Object.keys(rows).join() !== values.join()) {
    throw new SpecError(
      spec.file,
      `${pointer}/rows`,
      `rows must be keyed by the enum values in their order: ${values.join(', ')}`,
    );
  }
  if (typeof table.row?.$ref !== 'string')
    throw new SpecError(spec.file, `${pointer}/row`, 'row must be a $ref to the schema every row matches');
  const check = Compile({ $ref: table.row.$ref, components: spec.document.components } as never);
  for (const [key, row] of Object.entries(rows)) {
    if (check.Check(row)) continue;
    const [, errors] = check.Errors(row) as unknown as [boolean, { instancePath: string; message: string }[]];
    throw new SpecError(
      spec.file,
      `${pointer}/rows/${pointerSegment(key)}${errors[0]?.instancePath ?? ''}`,
      `does not match ${table.row.$ref}: ${errors[0]?.message}`,
    );
  }
  return { name, rows };
}

/** The component schemas marked `x-const`, in document order */
export function dataModel(spec: SpecFile): DataModel {
  const seen = new Set<string>();
  const consts: ConstModel[] = [];
  for (const [type, schema] of Object.entries<any>(spec.document.components?.schemas ?? {})) {
    if (schema?.['x-const'] === undefined && schema?.['x-table'] === undefined) continue;
    const pointer = `/components/schemas/${pointerSegment(type)}`;
    if (!IDENTIFIER.test(type)) throw new SpecError(spec.file, pointer, `"${type}" cannot name a TypeScript type`);
    const values = schema.enum;
    if (!Array.isArray(values) || values.length === 0 || values.some((v) => typeof v !== 'string')) {
      throw new SpecError(spec.file, `${pointer}/x-const`, 'x-const needs an enum of strings beside it');
    }
    const name = constName(spec, schema['x-const'], `${pointer}/x-const`, seen);
    const table =
      schema['x-table'] === undefined
        ? undefined
        : tableModel(spec, schema['x-table'], values, `${pointer}/x-table`, seen);
    consts.push({ type, name, pointer, values, table });
  }
  return { name: spec.name, source: spec.file, consts };
}
