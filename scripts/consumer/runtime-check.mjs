// Runs the installed SDK on another runtime (scripts/test-consumer.mjs runs it on Node.js 20, 22
// and Bun 1.4): every entry imports everywhere; where the runtime is supported the client
// constructors work, and where it is not (Node.js 20) each one throws UnsupportedRuntimeError,
// naming the runtimes supported and the one found, before the SDK's HTTP client (undici) loads.
//
//   <runtime> runtime-check.mjs <supported|unsupported>
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import * as sdk from '@svc-run/sdk';
import '@svc-run/sdk/ai-sdk';
import * as evals from '@svc-run/sdk/evals';
import * as managed from '@svc-run/sdk/managed';

const expectation = process.argv[2];
assert.ok(expectation === 'supported' || expectation === 'unsupported');
const runtime =
  process.versions.bun === undefined ? `Node.js ${process.versions.node}` : `Bun ${process.versions.bun}`;

const constructors = {
  createSvc: () =>
    sdk.createSvc({
      apiKey: 'svc_tracing_x',
      serviceName: 'runtime',
      captureContent: false,
      baseUrl: 'http://127.0.0.1:9',
    }),
  createEvaluationClient: () =>
    evals.createEvaluationClient({ apiKey: 'svc_rw_x', baseUrl: 'http://127.0.0.1:9' }),
  createManagedTargetHandler: () =>
    managed.createManagedTargetHandler({
      machineCredential: 'svc_machine_x',
      baseUrl: 'http://127.0.0.1:9',
      target: async () => ({ output: null }),
      flushTelemetry: async () => {},
    }),
};

if (expectation === 'supported') {
  for (const [name, create] of Object.entries(constructors)) {
    const made = create();
    assert.ok(made, `${name} returns on ${runtime}`);
    if (name === 'createSvc') await made.shutdown();
  }
  assert.equal(
    sdk.createSvcSafe({ apiKey: 'svc_tracing_x', serviceName: 'r', captureContent: false }).enabled,
    true,
  );
  console.log(
    `${runtime}: the SDK's entries import; createSvc, createEvaluationClient and createManagedTargetHandler work`,
  );
} else {
  const message = `@svc-run/sdk needs Node.js 22 (22.19 or later) or 24, or Bun 1.4 or later; this process runs ${runtime}.`;
  for (const [name, create] of Object.entries(constructors)) {
    assert.throws(create, (error) => {
      assert.equal(error.name, 'UnsupportedRuntimeError', `${name}: ${error.stack}`);
      assert.equal(error.message, message);
      assert.ok(error instanceof sdk.UnsupportedRuntimeError && error instanceof sdk.SvcError);
      assert.ok(!(error instanceof TypeError));
      assert.equal(error.version, process.versions.node);
      assert.equal(error.runtime, 'node');
      return true;
    });
  }
  // The safe factory gives a disabled client instead, with one warning saying why.
  process.removeAllListeners('warning');
  const warnings = [];
  process.on('warning', (warning) => warnings.push(warning));
  assert.equal(
    sdk.createSvcSafe({ apiKey: 'svc_tracing_x', serviceName: 'r', captureContent: false }).enabled,
    false,
  );
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(
    warnings.map((warning) => [warning.code, warning.message]),
    [['SVC_RUN_DISABLED', `svc-run telemetry is disabled: ${message}`]],
  );
  // undici (which throws while loading on Node.js 20) was never loaded.
  const loaded = Object.keys(createRequire(import.meta.url).cache);
  assert.deepEqual(
    loaded.filter((path) => path.includes('undici')),
    [],
  );
  console.log(`${runtime}: the SDK's entries import; each client constructor throws UnsupportedRuntimeError`);
}
