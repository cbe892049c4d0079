import { afterAll, describe, expect, it, vi } from 'vitest';
import { createSvcSafe } from '../client/create-svc-safe.js';
import { createSvc } from '../client/svc-client.js';
import { svcTelemetry } from './svc-telemetry.js';

// An application on AI SDK v6 has no `@ai-sdk/otel`: loading the entry must still work.
vi.mock('@ai-sdk/otel', () => {
  throw new Error("Cannot find package '@ai-sdk/otel'");
});

const options = { apiKey: 'svc_tracing_unused', baseUrl: 'http://127.0.0.1:9', serviceName: 'no-otel' };
const svc = createSvc({ ...options, captureContent: true });
const safe = createSvcSafe({ ...options, captureContent: true });
afterAll(async () => {
  await Promise.all([svc.shutdown(), safe.shutdown()]);
});

const MESSAGE =
  'svcTelemetry needs AI SDK v7 and its optional peer dependency @ai-sdk/otel: install them with ' +
  '`npm i ai@^7 @ai-sdk/otel@^1`. With AI SDK v6, pass svcExperimentalTelemetry(svc) as ' +
  '`experimental_telemetry` instead.';

describe('svcTelemetry without @ai-sdk/otel', () => {
  it('throws for a client, saying what to install, with the load error as cause', () => {
    let thrown: unknown;
    try {
      svcTelemetry(svc);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(Error);
    expect((thrown as Error).message).toBe(MESSAGE);
    expect((thrown as Error).cause).toBeInstanceOf(Error);
  });

  it('disables telemetry for a safe client, warning once', () => {
    const warn = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    try {
      expect(svcTelemetry(safe)).toEqual({ isEnabled: false });
      expect(svcTelemetry(safe)).toEqual({ isEnabled: false });
      expect(warn).toHaveBeenCalledTimes(1);
      expect(warn).toHaveBeenCalledWith(`svc-run telemetry is off for AI SDK calls: ${MESSAGE}`, {
        code: 'SVC_RUN_AI_SDK_OTEL_MISSING',
      });
    } finally {
      warn.mockRestore();
    }
  });
});
