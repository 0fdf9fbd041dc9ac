import * as assert from 'uvu/assert';
import { generate } from '../../scripts/generate.ts';

/** The message generating from `root` fails with; fails the test when generation succeeds */
export async function generatorError(root: string): Promise<string> {
  try {
    await generate(root);
  } catch (error) {
    return (error as Error).message;
  }
  return assert.unreachable('generation should fail') as never;
}
