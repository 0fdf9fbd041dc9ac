#!/usr/bin/env node
// Runs the TypeScript CLI without a build step: tsx compiles on the fly and caches what it compiled.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('./main.ts');
process.exitCode = await main(process.argv.slice(2));
