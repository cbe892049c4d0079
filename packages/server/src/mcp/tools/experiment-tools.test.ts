import { beforeAll, describe, expect, it } from 'vitest';
import { evalRequests, UNKNOWN_ID, uniqueSlug } from '../../evals/test-support/eval-requests.js';
import { datasetVersion, experiment, scorerVersion } from '../../evals/test-support/eval-setup.js';
import { errorText, resultCharacters, structured } from '../test-support/mcp-clients.js';
import { useMcp } from '../test-support/mcp-fixture.js';
import { encodeCursor } from '../tool-cursor.js';

const mcp = useMcp();
const api = evalRequests(mcp.fx);
const QUESTION = 'secret-case-question-0d1';
const OUTPUT = 'secret-agent-output-3f9';
const EXPLANATION = 'secret-explanation-8b2';
const LONG_OUTPUT = `${'long output '.repeat(40_000)}end`;

const ctx = { experimentId: '', caseIds: [] as string[], scorer: '' };

beforeAll(async () => {
  const { versionId, caseIds } = await datasetVersion(api, [
    { externalKey: 'a', inputs: { question: QUESTION }, expected: 'A', metadata: { topic: 'secret-topic' } },
    { externalKey: 'b', inputs: { question: 'b' } },
    { externalKey: 'c', inputs: { question: 'c' } },
  ]);
  ctx.caseIds = caseIds;
  ctx.scorer = await scorerVersion(api, { kind: 'builtin', builtin: 'exact_match' });
  const created = await experiment(api, versionId, [ctx.scorer], { model: 'gpt-4o' });
  ctx.experimentId = created.id;
  const outputs = [OUTPUT, LONG_OUTPUT];
  for (const [index, output] of outputs.entries()) {
    const started = await api.post<{ id: string }>(
      `/experiments/${created.id}/cases/${caseIds[index]}/executions`,
      {},
    );
    const done = await api.post<{ evaluationItemId: string }>(`/executions/${started.body.id}/complete`, {
      state: 'succeeded',
      output,
    });
    expect(done.status).toBe(200);
    const results = await api.post(`/runs/${created.evaluationRunId}/results`, {
      results: [
        {
          evaluationItemId: done.body.evaluationItemId,
          scorerVersionId: ctx.scorer,
          status: 'scored',
          metrics: [{ name: 'exact_match', value: false, passed: false }],
          explanation: EXPLANATION,
        },
      ],
    });
    expect(results.status).toBe(200);
  }
});

/** A registry record with its content fields left out and their sizes in `withheld`. */
function gated(record: Record<string, unknown>, fields: readonly string[]) {
  const kept = { ...record };
  const withheld: Record<string, number> = {};
  for (const field of fields) {
    if (!(field in kept)) continue;
    const value = kept[field];
    withheld[field] = Buffer.byteLength(typeof value === 'string' ? value : JSON.stringify(value));
    delete kept[field];
  }
  return Object.keys(withheld).length === 0 ? kept : { ...kept, withheld };
}

// biome-ignore lint/suspicious/noExplicitAny: the tests read JSON answers by path
type Json = Record<string, any>;

describe('get_experiment', () => {
  it('answers the experiment and its items as the registry does, content withheld by default', async () => {
    const result = await mcp.call('get_experiment', { experiment_id: ctx.experimentId, limit: 1 });
    const answer = structured<Json>(result);
    const experimentApi = await api.get(`/experiments/${ctx.experimentId}`, { key: mcp.fx.server.keys.read });
    const items = await api.get<Json>(`/experiments/${ctx.experimentId}/items?limit=1`, {
      key: mcp.fx.server.keys.read,
    });
    expect(answer.experiment).toEqual(experimentApi.body);
    expect(answer.items).toEqual(
      items.body.items.map((item: Json) => ({
        ...gated(item, ['inputs', 'expected', 'metadata']),
        latestExecution: gated(item.latestExecution, ['output']),
      })),
    );
    for (const secret of [QUESTION, OUTPUT, 'secret-topic'])
      expect(JSON.stringify(result)).not.toContain(secret);
    expect(answer.items[0].withheld).toEqual({
      inputs: expect.any(Number),
      expected: 1,
      metadata: expect.any(Number),
    });
    expect(answer.nextPage).toEqual({
      tool: 'get_experiment',
      arguments: { experiment_id: ctx.experimentId, limit: 1, cursor: expect.any(String) },
    });
    const second = structured<Json>(await mcp.call(answer.nextPage.tool, answer.nextPage.arguments));
    expect(second.items.map((item: Json) => item.caseId)).toEqual([ctx.caseIds[1]]);
  });

  it('answers the recorded content with include_content: true', async () => {
    const answer = structured<Json>(
      await mcp.call('get_experiment', { experiment_id: ctx.experimentId, include_content: true, limit: 1 }),
    );
    const items = await api.get<Json>(`/experiments/${ctx.experimentId}/items?limit=1`);
    expect(answer.items).toEqual(items.body.items);
    expect(JSON.stringify(answer)).toContain(QUESTION);
  });

  it('stays within the budget when an item is too large, pointing to get_experiment_item', async () => {
    const result = await mcp.call('get_experiment', {
      experiment_id: ctx.experimentId,
      include_content: true,
    });
    expect(resultCharacters(result)).toBeLessThanOrEqual(80_000);
    const answer = structured<Json>(result);
    expect(answer.items[1]).toEqual({
      caseId: ctx.caseIds[1],
      partial: true,
      characters: expect.any(Number),
    });
    expect(answer.cuts).toContainEqual(
      expect.objectContaining({
        at: '/items/1',
        next: {
          tool: 'get_experiment_item',
          arguments: { experiment_id: ctx.experimentId, case_id: ctx.caseIds[1], include_content: true },
        },
      }),
    );
  });

  it('answers an unknown experiment with an error saying so', async () => {
    expect(errorText(await mcp.call('get_experiment', { experiment_id: UNKNOWN_ID }))).toBe(
      'No experiment has this ID.',
    );
  });

  it.each([
    [{ experiment_id: 'x' }, 'must be a UUID at experiment_id'],
    [{ limit: 0 }, 'limit'],
    [{ cursor: encodeCursor({ list: '/items', from: 1 }) }, 'not a cursor of get_experiment'],
    [{ cursor: encodeCursor({ page: 'x' }) }, 'after must be a nextCursor returned by a previous page.'],
  ])('refuses bad arguments %j', async (args, message) => {
    const text = errorText(await mcp.call('get_experiment', { experiment_id: ctx.experimentId, ...args }));
    expect(text).toContain(message);
  });
});

describe('get_experiment_item', () => {
  it('answers the case view as the registry does, content withheld by default', async () => {
    const result = await mcp.call('get_experiment_item', {
      experiment_id: ctx.experimentId,
      case_id: ctx.caseIds[0],
    });
    const answer = structured<Json>(result);
    const view = await api.get<Json>(`/experiments/${ctx.experimentId}/cases/${ctx.caseIds[0]}`, {
      key: mcp.fx.server.keys.read,
    });
    expect(answer.case).toEqual(gated(view.body.case, ['inputs', 'expected', 'metadata']));
    expect(answer.executions).toEqual(view.body.executions.map((e: Json) => gated(e, ['output'])));
    expect(answer.results).toEqual(view.body.results.map((r: Json) => gated(r, ['explanation'])));
    for (const secret of [QUESTION, OUTPUT, EXPLANATION])
      expect(JSON.stringify(result)).not.toContain(secret);

    const full = structured<Json>(
      await mcp.call('get_experiment_item', {
        experiment_id: ctx.experimentId,
        case_id: ctx.caseIds[0],
        include_content: true,
      }),
    );
    expect({ case: full.case, executions: full.executions, results: full.results }).toEqual({
      case: view.body.case,
      executions: view.body.executions,
      results: view.body.results,
    });
  });

  it('keeps an item with a 480 kB output within the budget, and reads the output in windows', async () => {
    const args = { experiment_id: ctx.experimentId, case_id: ctx.caseIds[1], include_content: true };
    const result = await mcp.call('get_experiment_item', args);
    expect(resultCharacters(result)).toBeLessThanOrEqual(80_000);
    const answer = structured<Json>(result);
    expect(answer.executions[0]).toMatchObject({ partial: true });
    const cut = answer.cuts.find((c) => c.at === '/executions/0');
    expect(cut).toMatchObject({ kind: 'value', from: answer.executions[0].text.length });
    let text = answer.executions[0].text as string;
    let next = cut?.next;
    while (next !== undefined) {
      const window = structured<Json>(await mcp.call(next.tool, next.arguments));
      expect(window.size.characters).toBeLessThanOrEqual(80_000);
      expect(window.window.from).toBe(text.length);
      text += window.window.text;
      next = window.cuts[0]?.next;
    }
    const view = await api.get<Json>(`/experiments/${ctx.experimentId}/cases/${ctx.caseIds[1]}`);
    expect(JSON.parse(text)).toEqual(view.body.executions[0]);
  });

  it('answers an unknown case with an error saying so', async () => {
    const text = errorText(
      await mcp.call('get_experiment_item', { experiment_id: ctx.experimentId, case_id: UNKNOWN_ID }),
    );
    expect(text).toBe("No case of the experiment's dataset version has this ID.");
  });

  it.each([
    [{ case_id: 'nope' }, 'must be a UUID at case_id'],
    [{ include_content: 1 }, 'include_content'],
    [{ cursor: encodeCursor({ page: 'p1.MQ' }) }, 'not a cursor of get_experiment_item'],
  ])('refuses bad arguments %j', async (args, message) => {
    const text = errorText(
      await mcp.call('get_experiment_item', {
        experiment_id: ctx.experimentId,
        case_id: ctx.caseIds[0],
        ...args,
      }),
    );
    expect(text).toContain(message);
  });
});

describe.each([
  ['list_datasets', '/datasets'],
  ['list_scorers', '/scorers'],
])('%s', (tool, path) => {
  it('answers the pages the registry answers', async () => {
    const first = structured<Json>(await mcp.call(tool, { limit: 1 }));
    const page = await api.get<Json>(`${path}?limit=1`, { key: mcp.fx.server.keys.read });
    expect(first.items).toEqual(page.body.items);
    expect(first.cuts).toEqual([]);
    if (page.body.nextCursor !== null) {
      const second = structured<Json>(await mcp.call(tool, first.nextPage.arguments));
      const apiSecond = await api.get<Json>(`${path}?limit=1&after=${page.body.nextCursor}`);
      expect(second.items).toEqual(apiSecond.body.items);
    }
    const all = structured<Json>(await mcp.call(tool, {}));
    expect(all.items.length).toBeGreaterThanOrEqual(1);
  });

  it('cuts a page over the budget, and the cut continues it exactly', async () => {
    // Twelve more of them with 4,000-character descriptions: a page of 50 is over 8,000 characters.
    for (let i = 0; i < 12; i++) {
      const created = await api.post(path, {
        name: `Long ${i}`,
        slug: uniqueSlug('long'),
        description: 'd'.repeat(4_000),
      });
      expect(created.status).toBe(200);
    }
    const first = await mcp.call(tool, { max_tokens: 2_000 });
    expect(resultCharacters(first)).toBeLessThanOrEqual(8_000);
    const answer = structured<Json>(first);
    expect(answer.nextPage).toBeUndefined();
    expect(answer.cuts[0]).toMatchObject({ kind: 'list', at: '/items', from: answer.items.length });
    const items = [...answer.items];
    let next = answer.cuts[0]?.next;
    while (next !== undefined) {
      const page = structured<Json>(await mcp.call(next.tool, next.arguments));
      expect(page.size.characters).toBeLessThanOrEqual(8_000);
      items.push(...page.items);
      next = page.cuts[0]?.next ?? page.nextPage;
    }
    const all = await api.get<Json>(`${path}?limit=100`, { key: mcp.fx.server.keys.read });
    expect(items).toEqual(all.body.items);
  });

  it.each([
    [{ limit: 101 }, 'limit'],
    [{ cursor: 'garbage!' }, 'cursor: not a cursor of this tool'],
    [{ cursor: encodeCursor({ page: 'p1.zz' }) }, 'after must be a nextCursor returned by a previous page.'],
    [{ include_content: true }, 'include_content'],
  ])('refuses bad arguments %j', async (args, message) => {
    expect(errorText(await mcp.call(tool, args))).toContain(message);
  });
});
