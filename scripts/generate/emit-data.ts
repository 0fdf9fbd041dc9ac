import { header, type Emitted } from './emit.ts';
import type { GeneratorModel } from './model.ts';
import type { ConstModel, DataModel } from './model-data.ts';

function constLines(source: string, c: ConstModel): string[] {
  const lines = [
    `/** ${source}#${c.pointer}, in the spec's order */`,
    `export const ${c.name} = [`,
    ...c.values.map((v) => `  ${JSON.stringify(v)},`),
    '] as const;',
    '',
    `export type ${c.type} = (typeof ${c.name})[number];`,
    '',
  ];
  if (!c.table) return lines;
  return [
    ...lines,
    `/** ${source}#${c.pointer}/x-table: one row per ${c.type} */`,
    `export const ${c.table.name} = {`,
    ...Object.entries(c.table.rows).map(([key, row]) => `  ${JSON.stringify(key)}: ${JSON.stringify(row)},`),
    '} as const;',
    '',
  ];
}

function dataFile(data: DataModel): Emitted {
  const body = data.consts.flatMap((c) => constLines(data.source, c));
  return { path: `data/${data.name}.ts`, contents: [header([data.source]), ...body].join('\n') };
}

/** Enums marked `x-const` as const arrays, and their `x-table`s, one module per API */
export function emitData(model: GeneratorModel): Emitted[] {
  return model.data.map(dataFile);
}
