import { readFile } from 'node:fs/promises';
import { parse } from 'yaml';

/** Reads a YAML or JSON file (JSON is YAML 1.2) into a value; errors name the file */
export async function readDataFile(path: string): Promise<unknown> {
  const text = await readFile(path, 'utf8');
  try {
    return parse(text);
  } catch (error) {
    throw new Error(`Cannot parse "${path}": ${(error as Error).message}`);
  }
}
