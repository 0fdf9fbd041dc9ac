/**
 * uvu has no per-test timeout: a test waiting on a socket that never answers hangs its file until scripts/test.js
 * kills it at the runner limit, with no word on which test hung. `test` here is uvu's `test` with a deadline on every
 * test and hook (`TEST_DEADLINE_MS`, 60 s by default): past it the test fails with a message naming it, and the file
 * exits once uvu has printed its summary, even when the hung test left sockets or timers open.
 */
import { suite as uvuSuite, test as uvuTest, type Test } from 'uvu';

type Callback = Parameters<Test>[1];

const DEFAULT_DEADLINE_MS = Number(process.env.TEST_DEADLINE_MS) || 60_000;

let exitWatch: NodeJS.Timeout | undefined;

/** Once a deadline passed, what the hung test left open must not keep the file alive after uvu's summary */
function exitAfterSummary(): void {
  // uvu sets process.exitCode as its last step; unref'd, this checks only while something else keeps the process up
  exitWatch ??= setInterval(() => {
    if (process.exitCode !== undefined) process.exit();
  }, 100).unref();
}

function limited(label: string, handler: Callback, ms: number): Callback {
  return async (context) => {
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<never>((_, fail) => {
      timer = setTimeout(() => {
        exitAfterSummary();
        fail(new Error(`${label} did not finish within its deadline of ${ms} ms`));
      }, ms);
    });
    try {
      await Promise.race([handler(context), expired]);
    } finally {
      clearTimeout(timer);
    }
  };
}

/** `suite` (uvu's `test` or a named `suite()`) with a deadline of `ms` on each of its tests and hooks */
export function withDeadline(suite: Test, ms = DEFAULT_DEADLINE_MS): Test {
  const named = (prefix: string) => (name: string) => `${prefix} "${name}"`;
  const hook = (register: (handler: Callback) => void, label: string) => (handler: Callback) =>
    register(limited(label, handler, ms));
  const test = ((name: string, handler: Callback) => suite(name, limited(named('Test')(name), handler, ms))) as Test;
  test.only = (name: string, handler: Callback) => suite.only(name, limited(named('Test')(name), handler, ms));
  test.skip = suite.skip;
  test.before = Object.assign(hook(suite.before, 'A "before" hook'), {
    each: hook(suite.before.each, 'A "before.each" hook'),
  });
  test.after = Object.assign(hook(suite.after, 'An "after" hook'), {
    each: hook(suite.after.each, 'An "after.each" hook'),
  });
  test.run = suite.run;
  return test;
}

/** uvu's `test`, each test with the default deadline */
export const test = withDeadline(uvuTest);

/** uvu's `suite`, each test with a deadline of `ms` */
export function suite(name: string, ms = DEFAULT_DEADLINE_MS): Test {
  return withDeadline(uvuSuite(name), ms);
}
