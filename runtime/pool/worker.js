// The worker entry of every piscina pool: it only looks up a plugin's worker module and calls it.
// Plain JavaScript, because piscina cannot start a .ts worker under plain Node 20; tsx is registered here instead.
import { register } from 'tsx/esm/api';

register();
const modules = new Map();

export default async function run({ module, init, payload }) {
  let handler = modules.get(module);
  if (handler === undefined) {
    handler = import(module).then((m) => m.default);
    modules.set(module, handler);
  }
  return (await handler)(payload, init);
}
