'use strict';
// The file piscina starts each pool thread with. Piscina loads it with require(), and Node 20 requires an ES module
// synchronously: a thread stopped while that links the module's imports (a command ending as its pool starts) aborts
// the whole process in V8 ("v8::Module::IsGraphAsync must be used on an instantiated module"). So this file is
// CommonJS and loads the worker with import(), which a stopped thread only fails.
const worker = import('./worker.js');
// A worker that cannot load fails each task with the reason, rather than the thread as it starts
worker.catch(() => {});

module.exports = async function run(task) {
  return (await worker).default(task);
};
