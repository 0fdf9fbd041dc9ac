/**
 * The shape of a service contract as the host checks it, generated from `spec/contracts/` into `generated/contracts/`:
 * which members a service has, which it may leave out, and the schemas of those that are not methods.
 */
import type { PluginKind } from './types.ts';

/** One service contract's table. Since plugin API 1.7 */
export interface ServiceContract {
  /** The interface's name, such as `ScheduleStore` */
  readonly name: string;
  /** The plugin kind whose service is held to it; absent for a service no kind is held to (an API plugin's) */
  readonly kind?: PluginKind;
  /** The spec file it comes from */
  readonly source: string;
  /** Members that are not methods (a classifier's `version`), with the JSON Schema their value matches */
  readonly properties: Readonly<Record<string, { readonly optional: boolean; readonly schema: object }>>;
  readonly methods: Readonly<Record<string, { readonly optional: boolean }>>;
}
