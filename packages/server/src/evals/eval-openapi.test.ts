import { describe, expect, it } from 'vitest';
import { useServer } from '../test-support/server-fixture.js';
import { EVAL_ROUTE_ACCESS } from './eval-route-access.js';

const fx = useServer();

interface Operation {
  security?: unknown[];
  parameters?: { name: string; in: string; required?: boolean }[];
  requestBody?: { content: Record<string, unknown> };
  responses: Record<string, unknown>;
}

describe('evaluation routes in the OpenAPI document', () => {
  it('documents every route; mutations with their Idempotency-Key, JSON body and limits', async () => {
    const res = await fx.request('/api/v1/openapi.json', { key: fx.server.keys.read });
    const doc = (await res.json()) as {
      paths: Record<string, Record<string, Operation>>;
      components: { schemas: Record<string, unknown> };
    };
    for (const [id, access] of Object.entries(EVAL_ROUTE_ACCESS)) {
      const operation = doc.paths[access.path]?.[access.method.toLowerCase()];
      expect(operation, id).toBeDefined();
      if ('auth' in access) {
        expect(operation!.security, id).toEqual([]);
        continue;
      }
      expect(operation!.security, id).toEqual([{ bearer: [] }]);
      expect(Object.keys(operation!.responses), id).toEqual(
        expect.arrayContaining(['200', '401', '403', '422']),
      );
      if (access.method === 'POST') {
        expect(
          operation!.parameters?.find((p) => p.name === 'idempotency-key' && p.in === 'header'),
          id,
        ).toBeDefined();
        expect(Object.keys(operation!.requestBody?.content ?? {}), id).toEqual(['application/json']);
        expect(Object.keys(operation!.responses), id).toEqual(expect.arrayContaining(['409', '413', '415']));
      }
    }
    expect(Object.keys(doc.components.schemas)).toEqual(
      expect.arrayContaining([
        'Dataset',
        'DatasetVersion',
        'Case',
        'CaseWrite',
        'EvalSetCaseWrite',
        'ScorerDefinition',
        'MetricDefinition',
        'Experiment',
        'Execution',
        'CompleteExecution',
        'EvaluationRun',
        'Subject',
        'EvaluationResult',
        'ResultSubmissionItem',
        'JudgeJob',
        'JudgeBudget',
        'Artifact',
      ]),
    );
  });
});
