/** `npm run errors-doc`: writes the table of every registered error code into `docs/errors.md` */
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { registeredCodes, renderTable, withTable } from './errors-doc/table.ts';

const file = resolve(import.meta.dirname, '../docs/errors.md');
const codes = await registeredCodes();
writeFileSync(file, withTable(readFileSync(file, 'utf8'), renderTable(codes)));
console.log(`docs/errors.md: ${codes.length} codes`);
