/**
 * Test support: a small scenario for the `svc eval --scenario` and `--worker` tests, a notes world
 * (`add_note`, `list_notes`) with cases for `agents/scenario-agent.ts`'s behaviors and sealed
 * checks of each deterministic kind. Expected verdicts: `add` and `mcp` PASS, `wrong` FAIL (by
 * `butter noted`), `throws` ERROR.
 * @module
 */
import { fileURLToPath } from 'node:url';
import type { EvaluationClient, ScenarioDocument } from '@svc-run/sdk/evals';
import { uniqueSlug } from './eval-service.js';

/** The test agent file (TypeScript, run as it is). */
export const SCENARIO_AGENT = fileURLToPath(new URL('./agents/scenario-agent.ts', import.meta.url));

/** A case of the notes scenario: its key and the agent's inputs. */
export interface NotesCase {
  key: string;
  inputs: { behavior: string; text?: string };
}

/** The default cases. */
export const NOTES_CASES: NotesCase[] = [
  { key: 'add', inputs: { behavior: 'add', text: 'milk' } },
  { key: 'mcp', inputs: { behavior: 'mcp', text: 'eggs' } },
  { key: 'wrong', inputs: { behavior: 'add', text: 'bread' } },
  { key: 'throws', inputs: { behavior: 'throw', text: 'the secret reason' } },
];

/** The notes scenario document with `cases` (default {@link NOTES_CASES}) and a unique slug. */
export function notesScenario(cases: readonly NotesCase[] = NOTES_CASES, prefix = 'notes'): ScenarioDocument {
  const keys = cases.map((item) => item.key);
  const only = (key: string) => (keys.includes(key) ? [key] : []);
  const adding = cases
    .filter((item) => ['add', 'mcp'].includes(item.inputs.behavior))
    .map((item) => item.key);
  const checks: Record<string, unknown>[] = [];
  const noted = (name: string, text: string, key: string) => {
    if (only(key).length > 0) {
      checks.push({
        name,
        kind: 'state',
        assert: 'contains',
        pointer: '/notes',
        value: { text },
        cases: [key],
      });
    }
  };
  noted('milk noted', 'milk', 'add');
  noted('eggs noted', 'eggs', 'mcp');
  noted('butter noted', 'butter', 'wrong');
  if (adding.length > 0) {
    checks.push(
      { name: 'says added', kind: 'output', scorer: 'includes', expected: 'added', cases: adding },
      { name: 'add_note called', kind: 'tool_call', assert: 'called', tool: 'add_note', cases: adding },
    );
  }
  const rest = cases.filter((item) => !['add', 'mcp'].includes(item.inputs.behavior)).map((item) => item.key);
  if (rest.length > 0) {
    checks.push({
      name: 'at most one note',
      kind: 'state',
      assert: 'count',
      pointer: '/notes',
      count: 0,
      cases: rest,
    });
  }
  return {
    name: `Notes ${prefix}`,
    slug: uniqueSlug(prefix),
    description: 'Takes notes.',
    world: {
      state: { notes: [] },
      tools: [
        {
          name: 'add_note',
          description: 'Adds a note.',
          arguments: {
            type: 'object',
            properties: { text: { type: 'string', minLength: 1 } },
            required: ['text'],
            additionalProperties: false,
          },
          effect: { op: 'create', pointer: '/notes/-', value: { text: { $arg: 'text' } } },
        },
        {
          name: 'list_notes',
          description: 'Lists the notes.',
          arguments: { type: 'object', properties: {}, additionalProperties: false },
          effect: { op: 'read', pointer: '/notes' },
        },
      ],
    },
    cases: cases.map((item) => ({ key: item.key, inputs: item.inputs })),
    grading: { checks },
  } as unknown as ScenarioDocument;
}

/** Publishes the notes scenario; resolves to its slug and version ID. */
export async function publishNotesScenario(
  client: EvaluationClient,
  cases?: readonly NotesCase[],
  prefix?: string,
): Promise<{ slug: string; name: string; versionId: string }> {
  const document = notesScenario(cases, prefix);
  const published = await client.publishScenario(document, { idempotencyKey: crypto.randomUUID() });
  return { slug: published.scenario.slug, name: published.scenario.name, versionId: published.version.id };
}
