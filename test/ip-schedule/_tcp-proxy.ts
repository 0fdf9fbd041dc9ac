/**
 * A TCP relay between a host and PostgreSQL that can be paused: while paused nothing passes in either direction
 * (new connections are accepted and then hear nothing), as in a network partition; on resume what was held is
 * delivered, as TCP does once the network heals. It can also cut the connections open now at the client's next
 * write, as a server restart leaves a pool's idle connections: dead, and found so only when used.
 */
import { connect, createServer, type Socket } from 'node:net';

export interface TcpProxy {
  /** `url` with its host and port replaced by the relay's */
  via(url: string): string;
  pause(): void;
  resume(): void;
  /** The connections open now are cut, both sides, when their client next writes; new ones relay */
  cutOnNextWrite(): void;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  let paused = false;
  const held: (() => void)[] = [];
  const sockets = new Set<Socket>();
  const doomed = new Set<Socket>();
  const open = new Set<Socket>();
  const deliver = (step: () => void) => (paused ? held.push(step) : step());
  // Data and ends pass in order, so a server's last words before it closes reach the client once the relay resumes
  const relay = (from: Socket, to: Socket) => {
    from.on('data', (chunk) => deliver(() => !to.destroyed && to.write(chunk)));
    from.on('end', () => deliver(() => to.end()));
  };
  const server = createServer((inbound) => {
    const outbound = connect(target.port, target.host);
    for (const socket of [inbound, outbound]) {
      sockets.add(socket);
      socket.on('error', () => socket.destroy());
      socket.on('close', () => sockets.delete(socket));
    }
    open.add(inbound);
    inbound.on('close', () => open.delete(inbound));
    // Checked before the relay's own listener: a doomed connection's next write goes nowhere
    inbound.on('data', () => {
      if (!doomed.delete(inbound)) return;
      inbound.destroy();
      outbound.destroy();
    });
    relay(inbound, outbound);
    relay(outbound, inbound);
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  const port = (server.address() as { port: number }).port;
  return {
    via(url) {
      const relayed = new URL(url);
      relayed.host = `127.0.0.1:${port}`;
      return relayed.href;
    },
    pause() {
      paused = true;
    },
    resume() {
      paused = false;
      for (const deliver of held.splice(0)) deliver();
    },
    cutOnNextWrite() {
      for (const inbound of open) doomed.add(inbound);
    },
    async close() {
      const closed = new Promise((done) => server.close(done));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}
