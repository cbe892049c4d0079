/**
 * The upload benchmark, run by `pnpm bench` through `run.mjs`: one file of BENCH_UPLOAD_BYTES
 * (default 1,000,000,000 bytes, seeded content, written to a temporary directory first) uploaded
 * on loopback to the reference server (`real-server.mjs`, a child process):
 *
 * - `bare`: hash + reserve + streamed PUT + complete with undici alone (the floor);
 * - `sdk`: `span.recordFile({ path, upload: true })` + `flush()` through `@svc-run/sdk`.
 *
 * Each side runs in its own fresh child process (`media-upload-client.mjs`) against its own fresh
 * server (so neither finds the file already stored), the bare side first. Prints hashing and upload times, upload throughput, and the peak
 * resident-memory growth of each client over its resident set before the run. Target for the SDK:
 * growth ≤ 64 MiB. It only reports: missing the target never fails the run; a file the server does
 * not hold afterwards (size checked through the download route) does (exit 1).
 * @module
 */
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  Children,
  envInt,
  fmt,
  fmtInt,
  nextMessage,
  pad,
  padLeft,
  prng,
  runBench,
} from './bench-support.mjs';

const BYTES = envInt('BENCH_UPLOAD_BYTES', 1_000_000_000, 1);
const SEED = envInt('BENCH_SEED', 42, 0);
const RSS_TARGET = 64 * 1024 * 1024;
const WATCHDOG_MS = 8 * 60 * 1000;
const MiB = 1024 * 1024;

const here = import.meta.dirname;
const children = new Children();

/** Writes `bytes` of seeded content to `path`, 1 MiB at a time. */
function writeFile(path, bytes) {
  const next = prng(SEED);
  const block = Buffer.allocUnsafe(MiB);
  for (let i = 0; i < MiB; i += 4) block.writeUInt32LE(Math.floor(next() * 2 ** 32), i);
  const fd = openSync(path, 'w');
  try {
    for (let written = 0, n = 0; written < bytes; n++) {
      block.writeUInt32LE(n, 0); // every block differs
      const length = Math.min(MiB, bytes - written);
      writeSync(fd, block, 0, length);
      written += length;
    }
  } finally {
    closeSync(fd);
  }
}

async function runSide(side, path, sha256) {
  const server = await children.start(join(here, 'real-server.mjs'), `upload-server-${side}`);
  try {
    const result = await runClient(server, side, path);
    return { ...result, storedSize: await storedSize(server, result.traceId, result.sha256 ?? sha256) };
  } finally {
    await children.stop(server);
  }
}

async function runClient(server, side, path) {
  const client = await children.start(join(here, 'media-upload-client.mjs'), `upload-${side}`);
  const answer = nextMessage(client.child, ['result', 'error'], WATCHDOG_MS);
  client.child.send({ type: 'run', side, origin: server.origin, key: server.key, path, size: BYTES });
  const result = await answer;
  await client.exited;
  if (result.type === 'error') throw new Error(`${side} upload failed: ${result.message}`);
  return result;
}

/** The size the server reports for the file through its download route (Read key). */
async function storedSize(server, traceId, sha256) {
  const response = await fetch(`${server.origin}/api/v1/traces/${traceId}/blobs/${sha256}`, {
    headers: { authorization: `Bearer ${server.readKey}` },
  });
  if (response.status !== 200) return undefined;
  return (await response.json()).size;
}

function row(side, r) {
  const growth = r.peakRss - r.rssBefore;
  return [
    pad(side, 6),
    padLeft(fmt(r.hashMillis / 1000, 2), 8),
    padLeft(fmt(r.uploadMillis / 1000, 2), 10),
    padLeft(fmt(BYTES / MiB / (r.uploadMillis / 1000), 0), 12),
    padLeft(fmt(growth / MiB, 1), 14),
  ].join('  ');
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'svc-bench-upload-'));
  const path = join(dir, 'big.bin');
  try {
    console.log('');
    console.log(`Upload benchmark (one ${fmtInt(BYTES)}-byte file on loopback, Node ${process.version})`);
    console.log('  bare: hash + reserve + streamed PUT + complete with undici alone (the floor)');
    console.log('  sdk:  withSpan + span.recordFile({ path, upload: true }) + flush() through @svc-run/sdk');
    console.log(
      '  each side in a fresh child process; memory = peak resident set − resident set before the run',
    );
    writeFile(path, BYTES);
    const bare = await runSide('bare', path);
    const sdk = await runSide('sdk', path, bare.sha256);
    console.log('');
    console.log(
      `  ${pad('side', 6)}  ${padLeft('hash s', 8)}  ${padLeft('upload s', 10)}  ${padLeft('MiB/s upload', 12)}  ${padLeft('peak RSS +MiB', 14)}`,
    );
    console.log(`  ${row('bare', bare)}`);
    console.log(`  ${row('sdk', sdk)}`);
    for (const [side, r] of [
      ['bare', bare],
      ['sdk', sdk],
    ]) {
      if (r.uploaded !== 1 || r.storedSize !== BYTES) {
        throw new Error(
          `the server does not hold the ${side} upload (uploaded ${r.uploaded}, size ${r.storedSize})`,
        );
      }
    }
    const growth = sdk.peakRss - sdk.rssBefore;
    const ratio = bare.uploadMillis / sdk.uploadMillis;
    console.log('');
    console.log(`  sdk upload throughput / bare: ${fmt(ratio, 2)}`);
    console.log(
      `  sdk peak RSS growth ${fmt(growth / MiB, 1)} MiB: ${growth <= RSS_TARGET ? 'meets' : 'MISSES'} the target (≤ 64 MiB)`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await runBench('the upload benchmark', main, children, WATCHDOG_MS);
