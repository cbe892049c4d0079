/**
 * Builders of registry records for route tests: a frozen dataset version with cases, scorer
 * versions. Not part of the package's public API.
 * @module
 */
import { expect } from 'vitest';
import type { evalRequests } from './eval-requests.js';
import { uniqueSlug } from './eval-requests.js';

type Api = ReturnType<typeof evalRequests>;

/** A case to write. */
export interface CaseInput {
  externalKey: string;
  inputs: unknown;
  expected?: unknown;
  metadata?: Record<string, unknown>;
}

/** Creates a dataset version with `cases`, frozen unless `frozen` is false; returns its ID and case IDs. */
export async function datasetVersion(
  api: Api,
  cases: readonly CaseInput[],
  frozen = true,
): Promise<{ versionId: string; caseIds: string[] }> {
  const dataset = await api.post<{ id: string }>('/datasets', { name: 'Set', slug: uniqueSlug('set') });
  const version = await api.post<{ id: string; revision: number }>(
    `/datasets/${dataset.body.id}/versions`,
    {},
  );
  let revision = version.body.revision;
  const caseIds: string[] = [];
  for (const item of cases) {
    const res = await api.post<{ item: { id: string }; version: { revision: number } }>(
      `/dataset-versions/${version.body.id}/cases`,
      { expectedRevision: revision, ...item },
    );
    expect(res.status).toBe(200);
    caseIds.push(res.body.item.id);
    revision = res.body.version.revision;
  }
  if (frozen) {
    expect(
      (await api.post(`/dataset-versions/${version.body.id}/freeze`, { expectedRevision: revision })).status,
    ).toBe(200);
  }
  return { versionId: version.body.id, caseIds };
}

/** Publishes a version of a new scorer; returns its ID. */
export async function scorerVersion(api: Api, definition: Record<string, unknown>): Promise<string> {
  const scorer = await api.post<{ id: string }>('/scorers', { name: 'Scorer', slug: uniqueSlug('scorer') });
  const version = await api.post<{ id: string }>(`/scorers/${scorer.body.id}/versions`, definition);
  expect(version.status).toBe(200);
  return version.body.id;
}

/** Creates an experiment; returns `{ id, evaluationRunId }`. */
export async function experiment(
  api: Api,
  versionId: string,
  scorerVersionIds: readonly string[] = [],
  config: Record<string, unknown> = {},
): Promise<{ id: string; evaluationRunId: string }> {
  const res = await api.post<{ id: string; evaluationRunId: string }>('/experiments', {
    name: 'Experiment',
    datasetVersionId: versionId,
    scorerVersionIds,
    config,
  });
  expect(res.status).toBe(200);
  return res.body;
}
