import { describe, expect, it } from 'vitest';
import { ApiError } from './api-error.js';
import { BodyAccount } from './body-admission.js';
import { BodyBudget } from './body-budget.js';
import { BodyBuffer } from './body-buffer.js';

const KiB = 1024;
const MiB = 1024 * KiB;

function bytes(size: number, fill = 7): Uint8Array {
  return new Uint8Array(size).fill(fill);
}

describe('BodyBuffer', () => {
  it('allocates as bytes arrive, not the declared length', () => {
    const budget = new BodyBudget(128 * MiB);
    const account = new BodyAccount(budget);
    account.charge(64 * MiB); // a declared length is charged before the body is read
    const body = new BodyBuffer(64 * MiB, account, 64 * MiB);
    const [first, second] = [bytes(10), bytes(MiB)];
    const before = process.memoryUsage().arrayBuffers;
    body.append(first);
    // A first buffer of 1 MiB at most, whatever the declaration…
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThanOrEqual(MiB);
    body.append(second);
    // …then at most sixteen times what has arrived.
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThanOrEqual(16 * (MiB + 10));
    body.discard();
    expect(budget.used).toBe(0);
  });

  it('gives the body whole, in a buffer that owns its ArrayBuffer, for a declared or an undeclared length', () => {
    const parts = [bytes(70 * KiB, 1), bytes(300 * KiB, 2), bytes(5, 3)];
    const whole = Buffer.concat(parts);
    for (const declared of [whole.length, undefined]) {
      const account = new BodyAccount(new BodyBudget(MiB));
      if (declared !== undefined) account.charge(declared);
      const body = new BodyBuffer(declared ?? MiB, account, declared);
      for (const part of parts) body.append(part);
      const taken = body.take();
      expect(taken.equals(whole)).toBe(true);
      expect(taken.byteOffset).toBe(0);
      expect(taken.buffer.byteLength).toBe(whole.length);
      // What stays charged is the body's size, until the request is answered.
      expect(account.charged).toBe(whole.length);
      account.close();
      expect(account.charged).toBe(0);
    }
  });

  it('frees a body given up at once (its memory detached, not left to the garbage collector) and refunds it', () => {
    const budget = new BodyBudget(16 * MiB);
    const account = new BodyAccount(budget);
    const body = new BodyBuffer(16 * MiB, account);
    body.append(bytes(3 * MiB));
    expect(budget.used).toBeGreaterThanOrEqual(3 * MiB);
    const before = process.memoryUsage().arrayBuffers;
    body.discard();
    expect(before - process.memoryUsage().arrayBuffers).toBeGreaterThanOrEqual(3 * MiB);
    expect(budget.used).toBe(0);
    expect(account.charged).toBe(0);
  });

  it('charges a body without a declared length as it grows, and refuses growth past the budget with 503 and Retry-After', () => {
    const budget = new BodyBudget(MiB);
    const account = new BodyAccount(budget);
    const body = new BodyBuffer(64 * MiB, account);
    body.append(bytes(100 * KiB));
    expect(budget.used).toBeGreaterThanOrEqual(100 * KiB);
    expect(budget.used).toBeLessThanOrEqual(256 * KiB);
    let refused: unknown;
    try {
      body.append(bytes(MiB));
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as ApiError).status).toBe(503);
    expect((refused as ApiError).code).toBe('unavailable');
    expect((refused as ApiError).headers['retry-after']).toBe('1');
    body.discard();
    expect(budget.used).toBe(0);
  });

  it('never charges a body of declared length again as its buffer grows', () => {
    const budget = new BodyBudget(4 * MiB);
    const account = new BodyAccount(budget);
    account.charge(3 * MiB);
    const body = new BodyBuffer(3 * MiB, account, 3 * MiB);
    for (let i = 0; i < 48; i++) body.append(bytes(64 * KiB));
    expect(budget.used).toBe(3 * MiB);
    expect(body.take().length).toBe(3 * MiB);
    expect(budget.used).toBe(3 * MiB);
  });
});
