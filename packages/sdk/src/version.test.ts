import { readFileSync } from 'node:fs';
import { InMemoryLogRecordExporter, LoggerProvider, SimpleLogRecordProcessor } from '@opentelemetry/sdk-logs';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { describe, expect, it } from 'vitest';
import { createSvc } from './client/svc-client.js';
import { createSvcTransport } from './export/svc-transport.js';

const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  name: string;
  version: string;
};

/** `[major, minor, patch]` of a release version such as `0.4.1`. */
function parts(version: string): number[] {
  const match = /^(\d+)\.(\d+)\.(\d+)$/.exec(version);
  if (match === null) throw new Error(`not a release version: ${version}`);
  return match.slice(1).map(Number);
}

function atLeast(version: string, minimum: string): boolean {
  const [a, b] = [parts(version), parts(minimum)];
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i]! > b[i]!;
  return true;
}

describe('the SDK version', () => {
  it("is at least the spec's newest feature minimum: tool's `mcp` argument is dated 0.4.1", () => {
    // The spec tells users not to call a helper the installed version lacks, by these numbers.
    expect(atLeast(manifest.version, '0.4.1')).toBe(true);
  });

  it("is package.json's version on every span and log record the SDK records", async () => {
    // The application's own providers, exporting to memory; the service's processors are not
    // attached, so nothing leaves the process.
    const transport = createSvcTransport({
      apiKey: 'svc_tracing_test',
      baseUrl: 'http://127.0.0.1:9',
      serviceName: 'version-test',
      captureContent: true,
    });
    const spans = new InMemorySpanExporter();
    const logs = new InMemoryLogRecordExporter();
    const tracerProvider = new TracerProvider({
      spanProcessors: [new SimpleSpanProcessor({ exporter: spans })],
    });
    const loggerProvider = new LoggerProvider({
      processors: [new SimpleLogRecordProcessor({ exporter: logs })],
    });
    const svc = createSvc({ transport, tracerProvider, loggerProvider });

    await svc.withSpan('turn', async () => {
      svc.recordMessages({ input: [{ role: 'user', content: 'hi' }] });
      await svc.tool('lookup', { q: 1 }, () => 'found');
      await svc.model({ provider: 'openai', model: 'gpt-4o-mini' }, () => 'answer');
    });

    const scopes = [
      ...spans.getFinishedSpans().map((span) => span.instrumentationScope),
      ...logs.getFinishedLogRecords().map((record) => record.instrumentationScope),
    ];
    expect(scopes).toHaveLength(4);
    for (const scope of scopes) {
      expect(scope).toMatchObject({ name: manifest.name, version: manifest.version });
    }
    await svc.shutdown();
    await tracerProvider.shutdown();
    await loggerProvider.shutdown();
  });
});
