/**
 * The conformance suites of Capstan's extension points, exported as `capstan/conformance` so that a plugin written
 * outside this repository runs exactly the tests the built-in plugins run.
 *
 * @example
 * ```ts
 * import { storeConformance } from 'capstan/conformance';
 * import { usePlugin } from 'capstan';
 * storeConformance('my-store', async () => {
 *   const plugin = await usePlugin({ id: 'my-store', path: './my-store' });
 *   return { store: plugin.service as never, close: plugin.close };
 * });
 * ```
 */
export { classifierConformance } from './classifier.ts';
export type { ClassifierUnderTest } from './classifier.ts';
export { storeConformance } from './store.ts';
export type { StoreConformanceOptions, StoreUnderTest } from './store.ts';
