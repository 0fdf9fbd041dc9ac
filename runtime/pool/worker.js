// What each pool thread runs, loaded by worker-entry.cjs: it only looks up a plugin's worker module and calls it.
// Plain JavaScript, because piscina cannot start a .ts worker under plain Node 20; tsx is registered here instead.
import { register as registerCommonJs } from 'tsx/cjs/api';
import { register } from 'tsx/esm/api';

register();
// A plugin's worker.ts in a package typed "commonjs" (as `npm init -y` writes) loads as CommonJS: without tsx's
// CommonJS hook too, Node 20's require(esm) refuses it as "in a cycle", as the CLI's own registration explains
registerCommonJs();
const modules = new Map();

export default async function run({ module, init, payload }) {
  let handler = modules.get(module);
  if (handler === undefined) {
    // A .ts file outside an ESM package loads as CommonJS, which nests the default export once more
    handler = import(module).then((m) => (typeof m.default === 'function' ? m.default : m.default?.default));
    modules.set(module, handler);
  }
  const fn = await handler;
  if (typeof fn !== 'function') throw new TypeError(`Worker module "${module}" has no default export function`);
  return fn(payload, init);
}
