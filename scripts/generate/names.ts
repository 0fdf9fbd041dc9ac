/** How spec names (`ip-schedule`, `startup-config`) become TypeScript names, for the models and every emitter */

/** What may name a TypeScript member or type without quotes */
export const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** Turns a spec name such as `ip-schedule` into an identifier such as `ipSchedule` */
export function camel(name: string): string {
  return name.replace(/[-_.]+([a-z0-9])/gi, (_, c: string) => c.toUpperCase());
}

/** Turns a spec name such as `ip-schedule` into a type name such as `IpSchedule` */
export function pascal(name: string): string {
  return camel(name).replace(/^./, (c) => c.toUpperCase());
}
