/**
 * Test support: whether something accepts TCP connections at an origin.
 * @module
 */
import { connect } from 'node:net';

/** Resolves `true` when a TCP connection to `origin`'s host and port succeeds. */
export function acceptsConnections(origin: string): Promise<boolean> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve) => {
    const socket = connect({ host: hostname.replace(/^\[|\]$/g, ''), port: Number(port) });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
