import { createHash, randomBytes } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BlobBodyError } from './blob-body-error.js';
import { LocalBlobStore } from './local-blob-store.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function store(): { root: string; blobs: LocalBlobStore } {
  const dir = mkdtempSync(join(tmpdir(), 'svc-blobs-'));
  dirs.push(dir);
  const root = join(dir, 'blobs');
  return { root, blobs: new LocalBlobStore(root) };
}

function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

async function* chunks(...parts: Uint8Array[]): AsyncGenerator<Uint8Array> {
  for (const part of parts) yield part;
}

function filesUnder(root: string): string[] {
  return readdirSync(root).flatMap((shard) =>
    readdirSync(join(root, shard)).map((name) => `${shard}/${name}`),
  );
}

async function rejection(promise: Promise<unknown>): Promise<BlobBodyError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(BlobBodyError);
  return error as BlobBodyError;
}

describe('LocalBlobStore', () => {
  it('stores a file at <root>/<aa>/<sha256>, private, from a body in chunks', async () => {
    const { root, blobs } = store();
    const bytes = randomBytes(10_000);
    const digest = sha256(bytes);
    const result = await blobs.put(
      { sha256: digest, size: bytes.length },
      chunks(bytes.subarray(0, 3), bytes.subarray(3)),
    );
    expect(result).toEqual({ created: true });
    expect(filesUnder(root)).toEqual([`${digest.slice(0, 2)}/${digest}`]);
    expect(readFileSync(blobs.pathOf(digest))).toEqual(bytes);
    expect(statSync(blobs.pathOf(digest)).mode & 0o777).toBe(0o600);
    expect(statSync(root).mode & 0o777).toBe(0o700);
    expect(await blobs.isReadable(digest, bytes.length)).toBe(true);
    expect(await blobs.isReadable(digest, bytes.length + 1)).toBe(false);
  });

  it('verifies a body of a file it holds already without writing it again', async () => {
    const { blobs } = store();
    const bytes = randomBytes(100);
    const digest = sha256(bytes);
    await blobs.put({ sha256: digest, size: 100 }, chunks(bytes));
    const before = statSync(blobs.pathOf(digest)).mtimeMs;
    expect(await blobs.put({ sha256: digest, size: 100 }, chunks(bytes))).toEqual({ created: false });
    expect(statSync(blobs.pathOf(digest)).mtimeMs).toBe(before);
    // Still verified: another body of that size is refused, and the stored file is untouched.
    const error = await rejection(blobs.put({ sha256: digest, size: 100 }, chunks(randomBytes(100))));
    expect(error.code).toBe('digest_mismatch');
    expect(readFileSync(blobs.pathOf(digest))).toEqual(bytes);
  });

  it('rewrites a stored file of the wrong size (damaged) from a verified body', async () => {
    const { blobs } = store();
    const bytes = randomBytes(100);
    const digest = sha256(bytes);
    await blobs.put({ sha256: digest, size: 100 }, chunks(bytes));
    writeFileSync(blobs.pathOf(digest), bytes.subarray(0, 10));
    expect(await blobs.isReadable(digest, 100)).toBe(false);
    expect(await blobs.put({ sha256: digest, size: 100 }, chunks(bytes))).toEqual({ created: true });
    expect(readFileSync(blobs.pathOf(digest))).toEqual(bytes);
  });

  it('refuses a short body, a long body (without reading past the limit) and a wrong digest, keeping nothing', async () => {
    const { root, blobs } = store();
    const bytes = randomBytes(1000);
    const digest = sha256(bytes);
    expect(
      (await rejection(blobs.put({ sha256: digest, size: 1000 }, chunks(bytes.subarray(0, 999))))).code,
    ).toBe('size_mismatch');
    let pulled = 0;
    async function* endless(): AsyncGenerator<Uint8Array> {
      for (;;) {
        pulled++;
        yield new Uint8Array(300);
      }
    }
    const long = await rejection(blobs.put({ sha256: digest, size: 1000 }, endless()));
    expect(long.code).toBe('size_mismatch');
    expect(long.message).toBe('The body is longer than the reserved 1000 bytes.');
    expect(pulled).toBe(4);
    expect((await rejection(blobs.put({ sha256: digest, size: 1000 }, chunks(randomBytes(1000))))).code).toBe(
      'digest_mismatch',
    );
    expect(filesUnder(root)).toEqual([]);
    expect(await blobs.open(digest)).toBeUndefined();
  });

  it('refuses a body that fails before its end, keeping nothing', async () => {
    const { root, blobs } = store();
    const bytes = randomBytes(100);
    async function* broken(): AsyncGenerator<Uint8Array> {
      yield bytes.subarray(0, 50);
      throw new Error('aborted');
    }
    const error = await rejection(blobs.put({ sha256: sha256(bytes), size: 100 }, broken()));
    expect(error.code).toBe('size_mismatch');
    expect(error.message).toBe('The body ended before its declared size was received.');
    expect(filesUnder(root)).toEqual([]);
  });

  it('opens a stored file as a stream with its size', async () => {
    const { blobs } = store();
    const bytes = randomBytes(70_000);
    const digest = sha256(bytes);
    await blobs.put({ sha256: digest, size: bytes.length }, chunks(bytes));
    const blob = await blobs.open(digest);
    expect(blob?.size).toBe(70_000);
    const read: Buffer[] = [];
    for await (const chunk of blob!.stream) read.push(chunk as Buffer);
    expect(Buffer.concat(read)).toEqual(bytes);
  });

  it('removes the temporary files an interrupted process left, and nothing else', () => {
    const { root } = store();
    const digest = 'ab'.padEnd(64, '0');
    mkdirSync(join(root, 'ab'), { recursive: true });
    writeFileSync(join(root, 'ab', `.${digest}.123456.tmp`), 'partial');
    writeFileSync(join(root, 'ab', digest), 'kept');
    new LocalBlobStore(root);
    expect(existsSync(join(root, 'ab', `.${digest}.123456.tmp`))).toBe(false);
    expect(readFileSync(join(root, 'ab', digest), 'utf8')).toBe('kept');
  });
});
