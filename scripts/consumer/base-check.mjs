// Runs in a temporary ESM project where the three packages were installed from their packed
// tarballs with npm, and nothing else but `@opentelemetry/sdk-trace` (scripts/test-consumer.mjs):
// every entry imports; the error classes are one set across entries (`instanceof SvcError` holds
// for errors thrown by any of them); the SDK records its package.json version on spans; a span
// goes to the installed reference server and comes back in a receipt, with no `ai` installed; and
// the installed `svc` executable answers --help and --version and serves.
//
//   node base-check.mjs
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import * as cli from '@svc-run/cli';
import * as sdk from '@svc-run/sdk';
import * as aiSdk from '@svc-run/sdk/ai-sdk';
import * as evals from '@svc-run/sdk/evals';
import * as managed from '@svc-run/sdk/managed';
import * as server from '@svc-run/server';

const manifest = async (name) =>
  JSON.parse(await readFile(join('node_modules', name, 'package.json'), 'utf8'));
const versions = {
  sdk: (await manifest('@svc-run/sdk')).version,
  server: (await manifest('@svc-run/server')).version,
  cli: (await manifest('@svc-run/cli')).version,
};

function check(what, run) {
  return Promise.resolve()
    .then(run)
    .then(() => console.log(`  ✓ ${what}`));
}

// ─── Entries ───────────────────────────────────────────────────────────────────────────────────

await check('every entry imports and has its main functions', () => {
  const expected = {
    '@svc-run/sdk': [
      sdk,
      ['createSvc', 'createSvcSafe', 'createSvcTransport', 'createMediaReader', 'SvcClient'],
    ],
    '@svc-run/sdk/ai-sdk': [aiSdk, ['svcTelemetry', 'svcExperimentalTelemetry']],
    '@svc-run/sdk/evals': [
      evals,
      ['createEvaluationClient', 'runExperiment', 'rescore', 'defineLocalScorer'],
    ],
    '@svc-run/sdk/managed': [managed, ['createManagedTargetHandler']],
    '@svc-run/server': [server, ['startServer', 'createApp']],
    '@svc-run/cli': [cli, ['run', 'writeEnvFile']],
  };
  for (const [entry, [module, names]] of Object.entries(expected)) {
    for (const name of names) assert.equal(typeof module[name], 'function', `${entry} exports ${name}`);
  }
});

await check('the packages carry one version', () => {
  assert.equal(versions.server, versions.sdk);
  assert.equal(versions.cli, versions.sdk);
});

await check('every error class of every SDK entry is the root one, and extends SvcError', () => {
  const root = new Map(Object.entries(sdk));
  let classes = 0;
  for (const [entry, module] of Object.entries({
    '@svc-run/sdk': sdk,
    '@svc-run/sdk/ai-sdk': aiSdk,
    '@svc-run/sdk/evals': evals,
    '@svc-run/sdk/managed': managed,
  })) {
    for (const [name, value] of Object.entries(module)) {
      if (!name.endsWith('Error') || typeof value !== 'function') continue;
      classes += 1;
      assert.equal(value, root.get(name), `${entry}'s ${name} is the root's`);
      assert.ok(
        value === sdk.SvcError || value.prototype instanceof sdk.SvcError,
        `${name} extends SvcError`,
      );
    }
  }
  assert.ok(classes >= 12, `found ${classes} error exports`);
  assert.equal(evals.SvcError, sdk.SvcError);
  assert.equal(managed.SvcError, sdk.SvcError);
});

// ─── Tracing against the installed server (no `ai` installed) ─────────────────────────────────

await check('neither ai nor @ai-sdk/otel was installed (optional peers)', () => {
  assert.equal(existsSync(join('node_modules', 'ai')), false);
  assert.equal(existsSync(join('node_modules', '@ai-sdk', 'otel')), false);
});

const dataDir = await mkdtemp(join(tmpdir(), 'svc-consumer-server-'));
const running = await server.startServer({ dataDir });
try {
  await check('a span goes to the installed server and comes back in a receipt', async () => {
    const svc = sdk.createSvc({
      apiKey: running.keys.tracing,
      baseUrl: running.origin,
      serviceName: 'consumer',
      captureContent: true,
    });
    const { traceId, spanId } = await svc.withSpan('turn', (span) => {
      span.setInput({ question: 'hi' });
      span.setOutput({ answer: 'hello' });
      return { traceId: span.traceId, spanId: span.spanId };
    });
    const report = await svc.flush();
    assert.equal(report.acceptedSpans, 1);
    const { verified, receipt } = await svc.verifyTrace(traceId, {
      expectedSpanIds: [spanId],
      requiredFields: ['input', 'output'],
    });
    assert.equal(verified, true);
    assert.deepEqual(receipt.matchedSpanIds, [spanId]);
    await svc.shutdown();
  });

  await check('errors thrown by each entry are instances of the root SvcError', async () => {
    const root = sdk.createSvc({
      apiKey: 'svc_tracing_not_a_key',
      baseUrl: running.origin,
      serviceName: 'consumer',
      captureContent: false,
    });
    const rootError = await root.checkConnection().then(
      () => undefined,
      (error) => error,
    );
    assert.ok(rootError instanceof sdk.SvcConnectionError && rootError instanceof sdk.SvcError);
    assert.equal(rootError.status, 401);
    await root.shutdown();

    const client = evals.createEvaluationClient({ apiKey: 'svc_rw_not_a_key', baseUrl: running.origin });
    const evalsError = await client.checkConnection().then(
      () => undefined,
      (error) => error,
    );
    assert.ok(evalsError instanceof sdk.SvcApiError, 'SvcApiError of /evals is the root class');
    assert.ok(evalsError instanceof sdk.SvcError && evalsError instanceof evals.SvcError);
    assert.ok(sdk.SvcError.isInstance(evalsError));
    assert.equal(evalsError.status, 401);

    const reader = sdk.createMediaReader({ apiKey: running.keys.tracing, baseUrl: running.origin });
    const fetchError = await reader.fetch({ traceId: 'a'.repeat(32), sha256: 'b'.repeat(64) }).then(
      () => undefined,
      (error) => error,
    );
    assert.ok(fetchError instanceof sdk.MediaFetchError && fetchError instanceof sdk.SvcError);
  });
} finally {
  await running.close();
  await rm(dataDir, { recursive: true, force: true });
}

await check("spans carry the installed package.json's version", async () => {
  const transport = sdk.createSvcTransport({
    apiKey: 'svc_tracing_unused',
    baseUrl: 'http://127.0.0.1:9',
    serviceName: 'consumer',
    captureContent: false,
  });
  const exporter = new InMemorySpanExporter();
  const tracerProvider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
  const loggerProvider = { getLogger: () => ({ emit() {} }), forceFlush: async () => {} };
  const svc = sdk.createSvc({ transport, tracerProvider, loggerProvider });
  await svc.withSpan('turn', () => svc.tool('lookup', { q: 1 }, () => 'found'));
  const scopes = exporter.getFinishedSpans().map((span) => span.instrumentationScope);
  assert.deepEqual(scopes, [
    { name: '@svc-run/sdk', version: versions.sdk, schemaUrl: undefined },
    { name: '@svc-run/sdk', version: versions.sdk, schemaUrl: undefined },
  ]);
  await svc.shutdown();
  await tracerProvider.shutdown();
});

// ─── The installed `svc` executable ───────────────────────────────────────────────────────────

const svcBin = join('node_modules', '.bin', 'svc');
// `svc` starts with `#!/usr/bin/env node`: the `node` on PATH, made this one.
const env = { ...process.env, PATH: `${dirname(process.execPath)}${delimiter}${process.env.PATH}` };

await check('svc --help and svc --version', () => {
  const help = spawnSync(svcBin, ['--help'], { encoding: 'utf8', env });
  assert.equal(help.status, 0, help.stderr);
  assert.match(help.stdout, /^Usage: svc \[options\] \[command\]\n/);
  assert.match(help.stdout, /^ {2}serve \[options\] /m);
  assert.equal(help.stderr, '');
  const version = spawnSync(svcBin, ['--version'], { encoding: 'utf8', env });
  assert.equal(version.status, 0, version.stderr);
  assert.equal(version.stdout, `${versions.cli}\n`);
  const unknown = spawnSync(svcBin, ['bogus', '--help'], { encoding: 'utf8', env });
  assert.equal(unknown.status, 2);
  assert.equal(unknown.stderr, "error: unknown command 'bogus'\n(add --help for usage)\n");
});

await check(
  'svc serve starts the installed server, answers with the key of its env file, stops on SIGTERM; svc mcp --check lists its MCP tools',
  async () => {
    const cwd = await mkdtemp(join(tmpdir(), 'svc-consumer-serve-'));
    try {
      const child = spawn(join(process.cwd(), svcBin), ['serve', '--port', '0'], {
        cwd,
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stderr.setEncoding('utf8').on('data', (text) => {
        stderr += text;
      });
      const exited = new Promise((resolve) =>
        child.once('close', (code, signal) => resolve({ code, signal })),
      );
      const origin = await new Promise((resolve, reject) => {
        child.stdout.setEncoding('utf8').on('data', (text) => {
          stdout += text;
          if (/^Press Ctrl-C to stop\.$/m.test(stdout)) resolve(/listening on (\S+)/.exec(stdout)[1]);
        });
        void exited.then(() => reject(new Error(`svc serve exited early: ${stderr}`)));
      });
      const keys = Object.fromEntries(
        (await readFile(join(cwd, '.svc-data', 'svc.env'), 'utf8'))
          .split('\n')
          .filter((line) => /^[A-Z_]+=/.test(line))
          .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
      );
      assert.equal(keys.SVC_BASE_URL, origin);
      const response = await fetch(`${origin}/api/v1/projects/current`, {
        headers: { authorization: `Bearer ${keys.SVC_API_KEY}` },
      });
      assert.equal(response.status, 200);
      // The installed svc mcp (with the MCP SDK the registry gave) reaches the installed server's /mcp.
      const check = spawnSync(
        join(process.cwd(), svcBin),
        ['mcp', '--check', '--env-file', '.svc-data/svc.env'],
        {
          cwd,
          env,
          encoding: 'utf8',
        },
      );
      assert.equal(check.status, 0, check.stderr);
      assert.match(check.stdout, /^8 tools: search_traces, get_trace, get_span, verify_trace, /m);
      child.kill('SIGTERM');
      assert.deepEqual(await exited, { code: 0, signal: null });
      assert.equal(stderr, '');
    } finally {
      await rm(cwd, { recursive: true, force: true });
    }
  },
);
