import { randomUUID } from 'node:crypto';
import { Ajv2020 } from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isSpanIdHex, isTraceIdHex } from '../otlp/ids.js';
import { traceIdFromEither } from '../store/service-trace-id.js';
import { useServer } from '../test-support/server-fixture.js';
import { EITHER_TRACE_ID_PATTERN, SPAN_ID_PATTERN, TRACE_ID_PATTERN } from './id-patterns.js';

// Issue 13 item 6: the OpenAPI document is exact — a request it allows is one the server takes
// (the whole document is checked by Schemathesis in `scripts/test-schemathesis.mjs`; these tests pin
// the defects it found).
const fx = useServer();

interface OpenApiDocument {
  paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema: unknown }> } }>>;
  components: { schemas: Record<string, unknown> };
}

async function openApiDocument(): Promise<OpenApiDocument> {
  const res = await fx.request('/api/v1/openapi.json', { key: fx.server.keys.readWrite });
  expect(res.status).toBe(200);
  return (await res.json()) as OpenApiDocument;
}

/** A validator of the request body schema of `method path` in the document, `$ref`s resolved. */
function requestBodyValidator(doc: OpenApiDocument, method: string, path: string) {
  const schema = doc.paths[path]?.[method]?.requestBody?.content['application/json']?.schema;
  expect(schema, `${method} ${path}`).toBeDefined();
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  ajv.addSchema({ $id: 'svc-openapi', components: doc.components }, 'svc-openapi');
  const rewritten = JSON.parse(
    JSON.stringify(schema).replaceAll('"#/components/', '"svc-openapi#/components/'),
  );
  return ajv.compile(rewritten as object);
}

describe('the OpenAPI document is exact', () => {
  it('registers every named schema as it is: a field that may be null refers to the schema beside null, never makes the schema itself nullable', async () => {
    // `Execution` was registered as `type: ["object", "null"]` (from `latestExecution`'s nullable
    // use), so the document said every execution answer may be null; likewise `ManagedDispatchAnswer`.
    const doc = await openApiDocument();
    const nullable = Object.entries(doc.components.schemas)
      .filter(([, schema]) => {
        const type = (schema as { type?: unknown }).type;
        return Array.isArray(type) && type.includes('null');
      })
      .map(([name]) => name);
    expect(nullable).toEqual([]);
    const item = JSON.stringify(doc.components.schemas.ExperimentItem);
    expect(item).toContain('{"anyOf":[{"$ref":"#/components/schemas/Execution"},{"type":"null"}]}');
  });

  it('states a satisfiable output-files request: the body the route takes validates against it', async () => {
    const doc = await openApiDocument();
    const validate = requestBodyValidator(doc, 'post', '/api/v1/evals/executions/{executionId}/output-files');
    const body = {
      claimId: randomUUID(),
      sha256: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
      size: 12,
      contentType: 'text/plain',
      name: 'report.txt',
    };
    expect(validate(body), JSON.stringify(validate.errors)).toBe(true);
    expect(validate({ ...body, extra: 1 })).toBe(false);
    const { claimId: _claimId, ...withoutClaim } = body;
    expect(validate(withoutClaim)).toBe(false);
  });

  it('states the limits a page query takes, as the route reads them', async () => {
    const doc = await openApiDocument();
    const list = doc.paths['/api/v1/evals/datasets']!.get as unknown as {
      parameters: Array<{ name: string; schema: { pattern?: string } }>;
    };
    const { parameters } = list;
    const pattern = (name: string) => new RegExp(parameters.find((p) => p.name === name)!.schema.pattern!);
    for (const limit of ['1', '9', '10', '99', '100']) expect(pattern('limit').test(limit), limit).toBe(true);
    for (const limit of ['0', '101', '050', '-1', '1.0', ''])
      expect(pattern('limit').test(limit), limit).toBe(false);
    // Any cursor the pattern allows is read: the items after that position.
    for (const after of ['p2.0', 'p2.ff', 'p2.fffffffffffff']) {
      expect(pattern('after').test(after)).toBe(true);
      const res = await fx.request(`/api/v1/evals/datasets?after=${after}&limit=100`, {
        key: fx.server.keys.readWrite,
      });
      expect(res.status, after).toBe(200);
    }
  });

  it('states text fields that must hold a character other than whitespace the way the server reads them', async () => {
    const doc = await openApiDocument();
    const identity = doc.components.schemas.Identity as { properties: { name: { pattern: string } } };
    const nonBlank = new RegExp(identity.properties.name.pattern);
    for (const blank of [' ', '\t\n', '\u00a0', '\u2028', '\ufeff', '\u3000 ']) {
      expect(nonBlank.test(blank), JSON.stringify(blank)).toBe(false);
      expect(/\S/u.test(blank)).toBe(false);
    }
    for (const text of ['a', ' a ', '\u001c', '\u200b']) {
      expect(nonBlank.test(text), JSON.stringify(text)).toBe(/\S/u.test(text));
    }
  });
});

describe('ID patterns of the document', () => {
  const hex = (length: number) =>
    fc.string({
      unit: fc.constantFrom(...'0123456789abcdefA-'),
      minLength: length - 1,
      maxLength: length + 1,
    });
  it('accept exactly the IDs the server accepts', () => {
    fc.assert(
      fc.property(fc.oneof(hex(32), fc.constant('0'.repeat(32)), fc.string()), (value) => {
        expect(TRACE_ID_PATTERN.test(value)).toBe(isTraceIdHex(value));
      }),
    );
    fc.assert(
      fc.property(fc.oneof(hex(16), fc.constant('0'.repeat(16)), fc.string()), (value) => {
        expect(SPAN_ID_PATTERN.test(value)).toBe(isSpanIdHex(value));
      }),
    );
    const uuid = fc.uuid().map((id) => id.toLowerCase());
    fc.assert(
      fc.property(
        fc.oneof(hex(32), uuid, fc.constant('00000000-0000-0000-0000-000000000000'), fc.string()),
        (value) => {
          expect(EITHER_TRACE_ID_PATTERN.test(value)).toBe(traceIdFromEither(value) !== undefined);
        },
      ),
    );
  });
});
