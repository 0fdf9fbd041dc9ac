/**
 * The check the host makes before handing one plugin's service to another: the service has every method of its
 * contract (generated from `spec/contracts/`), and every other member matches its schema. Structural only: what the
 * methods answer is what the conformance suites (`capstan/conformance`) test.
 */
import { Compile } from 'typebox/schema';
import { serviceContracts } from '../../generated/contracts.ts';
import type { ServiceContract } from '../core/service-contract.ts';
import type { PluginKind } from '../core/types.ts';

type Validator = { Errors(value: unknown): unknown };

// Compiled on a contract's first check: a hand-off (each service a plugin uses) then only runs the validators
const compiled = new WeakMap<ServiceContract, ReadonlyMap<string, Validator>>();

function validators(contract: ServiceContract): ReadonlyMap<string, Validator> {
  let byName = compiled.get(contract);
  if (byName === undefined) {
    byName = new Map(
      Object.entries(contract.properties).map(([name, { schema }]) => [name, Compile(schema as never) as Validator]),
    );
    compiled.set(contract, byName);
  }
  return byName;
}

/** The contract the service of a plugin of `kind` is held to; undefined for a kind with none (`api`) */
export function contractOf(kind: PluginKind): ServiceContract | undefined {
  return serviceContracts.find((contract) => contract.kind === kind);
}

/** What `service` lacks of `contract`, as a sentence's end naming the member; undefined when it has everything */
export function contractProblem(contract: ServiceContract, service: unknown): string | undefined {
  if (typeof service !== 'object' || service === null) return 'the service is not an object';
  const members = service as Record<string, unknown>;
  const checks = validators(contract);
  for (const [name, { optional }] of Object.entries(contract.properties)) {
    const value = members[name];
    if (value === undefined) {
      if (optional) continue;
      return `property "${name}" is missing`;
    }
    const [valid, errors] = checks.get(name)!.Errors(value) as unknown as [boolean, { message: string }[]];
    if (!valid) return `property "${name}" ${errors[0]?.message ?? 'does not match its schema'}`;
  }
  for (const [name, { optional }] of Object.entries(contract.methods)) {
    const value = members[name];
    if (value === undefined && optional) continue;
    if (value === undefined) return `method "${name}" is missing`;
    if (typeof value !== 'function') return `method "${name}" is not a function`;
  }
  return undefined;
}
