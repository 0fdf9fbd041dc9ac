import type { TSchema } from 'typebox';
import type { PluginDefinition } from '../core/types.ts';

const BRAND = Symbol.for('capstan.plugin');

/** Declares a plugin; its config type follows from the TypeBox schema */
export function definePlugin<S extends TSchema>(definition: PluginDefinition<S>): PluginDefinition<S> {
  return Object.freeze({ ...definition, [BRAND]: true });
}

/** True for an object made by `definePlugin` */
export function isPluginDefinition(value: unknown): value is PluginDefinition {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[BRAND] === true;
}
