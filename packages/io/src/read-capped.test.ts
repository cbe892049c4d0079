import { createServer, get, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readCapped } from './read-capped.js';

const bytes = (text: string) => new TextEncoder().encode(text);

describe('readCapped', () => {
  it('reads a Node stream whole up to the cap, and stops (destroying it) past it', async () => {
    expect(await readCapped(Readable.from([bytes('ab'), bytes('cd')]), 4)).toEqual(Buffer.from('abcd'));
    expect(await readCapped(Readable.from([]), 0)).toEqual(Buffer.alloc(0));
    let pulled = 0;
    const endless = new Readable({
      read() {
        pulled += 1;
        this.push(bytes('xyz'));
      },
    });
    expect(await readCapped(endless, 4)).toBeUndefined();
    expect(endless.destroyed).toBe(true);
    expect(pulled).toBeLessThan(10);
  });

  it('reads a Fetch ReadableStream and cancels it past the cap', async () => {
    expect(await readCapped(new Response('hello').body!, 5)).toEqual(Buffer.from('hello'));
    let cancelled = false;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.enqueue(bytes('0123456789'));
      },
      cancel() {
        cancelled = true;
      },
    });
    expect(await readCapped(stream, 15)).toBeUndefined();
    expect(cancelled).toBe(true);
  });

  it('rejects when the stream fails before its end', async () => {
    const failing = new Readable({
      read() {
        this.push(bytes('ab'));
        this.destroy(new Error('connection reset'));
      },
    });
    await expect(readCapped(failing, 100)).rejects.toThrow('connection reset');
  });

  it('reads an HTTP answer (IncomingMessage) and drops the connection past the cap', async () => {
    const server = createServer((request, response) => {
      if (request.url === '/small') response.end('small answer');
      else {
        response.write('x'.repeat(64 * 1024));
        // The rest never comes: only a reader that stops at the cap resolves.
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const answer = (path: string) =>
      new Promise<IncomingMessage>((resolve, reject) =>
        get(`${origin}${path}`, resolve).once('error', reject),
      );
    try {
      expect((await readCapped(await answer('/small'), 1024))?.toString()).toBe('small answer');
      const large = await answer('/large');
      expect(await readCapped(large, 1024)).toBeUndefined();
      // Leaving the iteration destroys the response's socket: the rest is never received.
      expect(large.socket.destroyed).toBe(true);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
