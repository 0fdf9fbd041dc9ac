/**
 * A TCP relay between a host and PostgreSQL that can be paused: while paused nothing passes in either direction
 * (new connections are accepted and then hear nothing), as in a network partition; on resume what was held is
 * delivered, as TCP does once the network heals.
 */
import { connect, createServer, type Socket } from 'node:net';

export interface TcpProxy {
  /** `url` with its host and port replaced by the relay's */
  via(url: string): string;
  pause(): void;
  resume(): void;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  let paused = false;
  const held: (() => void)[] = [];
  const sockets = new Set<Socket>();
  const deliver = (step: () => void) => (paused ? held.push(step) : step());
  // Data and ends pass in order, so a server's last words before it closes reach the client once the relay resumes
  const relay = (from: Socket, to: Socket) => {
    from.on('data', (chunk) => deliver(() => to.write(chunk)));
    from.on('end', () => deliver(() => to.end()));
  };
  const server = createServer((inbound) => {
    const outbound = connect(target.port, target.host);
    for (const socket of [inbound, outbound]) {
      sockets.add(socket);
      socket.on('error', () => socket.destroy());
      socket.on('close', () => sockets.delete(socket));
    }
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
    async close() {
      const closed = new Promise((done) => server.close(done));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}
