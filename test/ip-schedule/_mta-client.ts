/**
 * A policy feed client that behaves as the MTA's own (../shared/reference/real-systems.md, "Policy feed over
 * WebSocket"): its only setting is the address, used as it is (no headers); it stops on a `VERSION` other than 1;
 * a (re)connect replays the state, and at `SYNCED` it deletes what it held before that was not re-sent; a `CREATE`
 * of an id held before the reconnect is applied as an update (`then` and `ttl` only); an `UPDATE` changes only
 * `then` and `ttl`; a `DELETE` reads only the id; it reconnects after `reconnectMs` (the MTA: every second).
 * Anything the real client would reject or silently get wrong is recorded in `errors`, which tests expect empty.
 */
import WebSocket from 'ws';

type Policy = {
  id: string;
  type: string;
  fields: string[];
  if: Record<string, string>;
  then: Record<string, unknown>;
  ttl?: number;
};
type Suspend = { id: string; type: string; [field: string]: unknown };

/** A received frame, parsed */
export type Frame = { action: string; version?: number; policy?: Policy; suspend?: Suspend };

/** The client's options */
export interface MtaClientOptions {
  /** Wait before reconnecting after a close (the MTA: 1000 ms) */
  reconnectMs?: number;
  /** Keep every frame in `frames` (tests of the protocol); off for the soak test's hundreds of clients */
  keepFrames?: boolean;
}

/** One MTA node's policy client */
export class MtaClient {
  readonly address: string;
  readonly policies = new Map<string, Policy>();
  readonly suspends = new Map<string, Suspend>();
  readonly frames: Frame[] = [];
  readonly errors: string[] = [];
  /** Completed syncs (one per connection that reached `SYNCED`) */
  syncs = 0;
  /** Connections opened */
  connections = 0;
  /** Frames received since the start */
  received = 0;
  #options: Required<MtaClientOptions>;
  #ws: WebSocket | undefined;
  #stopped = false;
  #syncing = false;
  /** Ids held when the current connection opened, and those re-sent since */
  #heldBefore = { policies: new Set<string>(), suspends: new Set<string>() };
  #resent = { policies: new Set<string>(), suspends: new Set<string>() };
  #watchers = new Set<() => void>();
  #reconnect: NodeJS.Timeout | undefined;

  constructor(address: string, options: MtaClientOptions = {}) {
    this.address = address;
    this.#options = { reconnectMs: options.reconnectMs ?? 1000, keepFrames: options.keepFrames ?? true };
  }

  /** Connects and resolves at the first `SYNCED` (the MTA's start-up waits for it) */
  start(timeoutMs = 5000): Promise<void> {
    this.#connect();
    return this.until(() => this.syncs > 0, timeoutMs, 'first SYNCED');
  }

  /** Resolves once `ready()` holds after a frame or a state change; fails after `timeoutMs` */
  until(ready: () => boolean, timeoutMs = 2000, what = 'condition'): Promise<void> {
    if (ready()) return Promise.resolve();
    return new Promise((done, fail) => {
      const check = () => {
        if (!ready()) return;
        clearTimeout(timer);
        this.#watchers.delete(check);
        done();
      };
      const timer = setTimeout(() => {
        this.#watchers.delete(check);
        fail(new Error(`${what} not reached within ${timeoutMs} ms (client of ${this.address})`));
      }, timeoutMs);
      this.#watchers.add(check);
    });
  }

  /** The held state in the shape of `GET /v1/policies`, sorted by id */
  state(): { policies: Policy[]; suspends: Suspend[] } {
    const sorted = <T extends { id: string }>(map: Map<string, T>) =>
      [...map.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    return { policies: sorted(this.policies), suspends: sorted(this.suspends) };
  }

  /** The current connection */
  get socket(): WebSocket | undefined {
    return this.#ws;
  }

  /** Closes the connection as a network failure would; the client reconnects */
  drop(): void {
    this.#ws?.terminate();
  }

  /** Stops for good */
  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#reconnect);
    const ws = this.#ws;
    if (!ws || ws.readyState === ws.CLOSED) return;
    await new Promise<void>((done) => {
      ws.once('close', () => done());
      ws.terminate();
    });
  }

  #connect(): void {
    if (this.#stopped) return;
    this.connections++;
    this.#syncing = true;
    this.#heldBefore = { policies: new Set(this.policies.keys()), suspends: new Set(this.suspends.keys()) };
    this.#resent = { policies: new Set(), suspends: new Set() };
    const ws = new WebSocket(this.address);
    this.#ws = ws;
    ws.on('message', (data, binary) => {
      if (binary) return this.#error('binary frame');
      this.#receive(data.toString());
      for (const check of [...this.#watchers]) check();
    });
    ws.on('error', () => {});
    ws.on('close', () => {
      if (!this.#stopped) this.#reconnect = setTimeout(() => this.#connect(), this.#options.reconnectMs);
    });
  }

  #receive(text: string): void {
    this.received++;
    let frame: Frame;
    try {
      frame = JSON.parse(text) as Frame;
    } catch {
      return this.#error(`not JSON: ${text.slice(0, 80)}`);
    }
    if (this.#options.keepFrames) this.frames.push(frame);
    switch (frame.action) {
      case 'VERSION':
        if (frame.version !== 1) {
          this.#error(`version ${frame.version}: the client stops`);
          void this.stop();
        }
        return;
      case 'CREATE':
        return frame.policy
          ? this.#createPolicy(frame.policy)
          : frame.suspend
            ? this.#createSuspend(frame.suspend)
            : this.#error('CREATE without policy or suspend');
      case 'UPDATE':
        return frame.policy ? this.#updatePolicy(frame.policy) : this.#error('UPDATE without a policy');
      case 'DELETE': {
        const map = frame.policy ? this.policies : frame.suspend ? this.suspends : undefined;
        const id = (frame.policy ?? frame.suspend)?.id;
        if (!map || typeof id !== 'string') return this.#error('DELETE without a policy or suspend id');
        if (!map.delete(id)) this.#error(`DELETE of unknown ${frame.policy ? 'policy' : 'suspend'} "${id}"`);
        return;
      }
      case 'SYNCED':
        if (!this.#syncing) return this.#error('SYNCED twice on one connection');
        this.#syncing = false;
        for (const id of this.#heldBefore.policies) if (!this.#resent.policies.has(id)) this.policies.delete(id);
        for (const id of this.#heldBefore.suspends) if (!this.#resent.suspends.has(id)) this.suspends.delete(id);
        this.syncs++;
        return;
      default:
        this.#error(`unknown action "${frame.action}"`);
    }
  }

  #createPolicy(policy: Policy): void {
    if (policy.type === 'WARMUP' && typeof policy.if?.localip !== 'string')
      return this.#error(`WARMUP policy "${policy.id}" without if.localip`);
    const held = this.policies.get(policy.id);
    if (held && this.#syncing && this.#heldBefore.policies.has(policy.id) && !this.#resent.policies.has(policy.id)) {
      // Applied as an update: whatever else the CREATE says about type, fields and if is not applied
      if (!sameScope(held, policy))
        this.#error(`CREATE of held "${policy.id}" changes its type, fields or if: the client keeps the old ones`);
      this.policies.set(policy.id, updated(held, policy));
    } else if (held) {
      return this.#error(`CREATE of policy "${policy.id}", which exists`);
    } else {
      this.policies.set(policy.id, policy);
    }
    if (this.#syncing) this.#resent.policies.add(policy.id);
  }

  #createSuspend(suspend: Suspend): void {
    const held = this.suspends.has(suspend.id);
    if (
      held &&
      !(this.#syncing && this.#heldBefore.suspends.has(suspend.id) && !this.#resent.suspends.has(suspend.id))
    ) {
      return this.#error(`CREATE of suspend "${suspend.id}", which exists`);
    }
    this.suspends.set(suspend.id, suspend);
    if (this.#syncing) this.#resent.suspends.add(suspend.id);
  }

  #updatePolicy(policy: Policy): void {
    const held = this.policies.get(policy.id);
    if (!held) return this.#error(`UPDATE of unknown policy "${policy.id}"`);
    if (!sameScope(held, policy))
      this.#error(`UPDATE of "${policy.id}" changes its type, fields or if: the client ignores that`);
    this.policies.set(policy.id, updated(held, policy));
  }

  #error(message: string): void {
    this.errors.push(message);
  }
}

/** `held` with the `then` and `ttl` of `policy`: all an update changes */
function updated(held: Policy, policy: Policy): Policy {
  const { ttl: _, ...rest } = held;
  return policy.ttl === undefined ? { ...rest, then: policy.then } : { ...rest, then: policy.then, ttl: policy.ttl };
}

function sameScope(a: Policy, b: Policy): boolean {
  return (
    a.type === b.type &&
    JSON.stringify(a.fields) === JSON.stringify(b.fields) &&
    JSON.stringify(a.if) === JSON.stringify(b.if)
  );
}
