/**
 * The rules of a scenario document that its JSON Schema cannot state, checked after the schema:
 * names unique where they must be, pointers and pointer templates well formed, every argument a
 * template names declared by its tool, argument schemas valid object schemas, case state changes
 * that apply, checks naming cases and tools that exist, every case graded, and the per-case limits.
 * Every problem is collected, each with its path.
 * @module
 */
import { jsonSchemaProblem } from '../../evals/scorers/json-schema-shape.js';
import {
  createAt,
  getAt,
  type JsonValue,
  PointerSyntaxError,
  parsePointer,
  removeAt,
  replaceAt,
} from '../world/json-pointer.js';
import { pointerPlaceholders, valueReferences } from '../world/templates.js';
import { MAX_CASE_CHECKS, MAX_CASE_JUDGES, MAX_STATE_BYTES } from './document-limits.js';
import { type DocumentProblem, problemAt } from './document-problem.js';
import type { Check, DocumentCase, DocumentTool, ScenarioDocument } from './scenario-document-schema.js';

type Path = (string | number)[];

function pointerProblem(pointer: string): string | undefined {
  try {
    parsePointer(pointer);
    return undefined;
  } catch (error) {
    if (error instanceof PointerSyntaxError) return `is not a JSON Pointer: ${error.message}`;
    throw error;
  }
}

/** The problems of one tool: its schema, its templates and the arguments they name. */
function toolProblems(tool: DocumentTool, at: Path): DocumentProblem[] {
  const problems: DocumentProblem[] = [];
  const schemaProblem = jsonSchemaProblem(tool.arguments);
  if (schemaProblem !== undefined) {
    problems.push(
      problemAt([...at, 'arguments'], `is not a valid JSON Schema (draft 2020-12): ${schemaProblem}`),
    );
  } else if (tool.arguments.type !== 'object') {
    problems.push(
      problemAt([...at, 'arguments', 'type'], 'must be "object": a tool takes an object of named arguments'),
    );
  }
  const properties = tool.arguments.properties;
  const declared = new Set(
    typeof properties === 'object' && properties !== null && !Array.isArray(properties)
      ? Object.keys(properties)
      : [],
  );
  const checkTemplate = (pointer: string, where: Path) => {
    const syntax = pointerProblem(pointer.replace(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g, 'x'));
    if (syntax !== undefined) problems.push(problemAt(where, syntax));
    for (const name of pointerPlaceholders(pointer)) {
      if (!declared.has(name)) {
        problems.push(
          problemAt(
            where,
            `names the argument "${name}", which the tool's arguments schema does not declare (properties)`,
          ),
        );
      }
    }
  };
  const checkValue = (value: unknown, where: Path) => {
    for (const name of valueReferences(value)) {
      if (!declared.has(name)) {
        problems.push(
          problemAt(
            where,
            `refers to the argument "${name}", which the tool's arguments schema does not declare (properties)`,
          ),
        );
      }
    }
  };
  for (const [index, condition] of (tool.preconditions ?? []).entries()) {
    checkTemplate(condition.pointer, [...at, 'preconditions', index, 'pointer']);
    if ('value' in condition) checkValue(condition.value, [...at, 'preconditions', index, 'value']);
  }
  const effect = tool.effect;
  checkTemplate(effect.pointer, [...at, 'effect', 'pointer']);
  if ('value' in effect) checkValue(effect.value, [...at, 'effect', 'value']);
  if (effect.op === 'query') {
    for (const [index, filter] of (effect.where ?? []).entries()) {
      const syntax = pointerProblem(filter.path);
      if (syntax !== undefined) problems.push(problemAt([...at, 'effect', 'where', index, 'path'], syntax));
      checkValue(filter.value, [...at, 'effect', 'where', index, 'value']);
    }
  }
  return problems;
}

function stateSizeProblem(state: JsonValue, where: Path): DocumentProblem[] {
  return Buffer.byteLength(JSON.stringify(state), 'utf8') > MAX_STATE_BYTES
    ? [problemAt(where, `makes a state larger than ${MAX_STATE_BYTES} bytes of JSON`)]
    : [];
}

/** The state of `item`: the initial state with its changes applied (JSON Patch add, replace, remove). */
export function caseState(
  initial: JsonValue,
  item: DocumentCase,
): { state: JsonValue; problems: DocumentProblem[] } {
  let state = initial;
  const problems: DocumentProblem[] = [];
  for (const [index, change] of (item.state ?? []).entries()) {
    const where = ['state', index, 'path'];
    const syntax = pointerProblem(change.path);
    if (syntax !== undefined) {
      problems.push(problemAt(where, syntax));
      continue;
    }
    const tokens = parsePointer(change.path);
    let outcome: ReturnType<typeof replaceAt>;
    if (change.op === 'remove') outcome = removeAt(state, tokens);
    else if (change.op === 'replace' || tokens.length === 0)
      outcome = replaceAt(state, tokens, change.value as JsonValue);
    // JSON Patch add: inserts into an array, sets an object's member (new or not).
    else if (!Array.isArray(getAt(state, tokens.slice(0, -1))) && getAt(state, tokens) !== undefined) {
      outcome = replaceAt(state, tokens, change.value as JsonValue);
    } else outcome = createAt(state, tokens, change.value as JsonValue);
    if (outcome.ok) {
      state = outcome.root;
    } else {
      const why = {
        missing_parent: 'names a location whose parent does not exist',
        exists: 'names a location that holds a value already',
        not_found: 'names a location that holds nothing',
        bad_index: 'names an array position that does not exist',
        root: 'cannot add or remove the whole state',
      }[outcome.failure];
      problems.push(problemAt(where, why));
    }
  }
  if (typeof state !== 'object' || state === null || Array.isArray(state)) {
    problems.push(problemAt(['state'], 'must leave the state a JSON object'));
  }
  return { state, problems };
}

/** The case keys a check grades. */
export function casesOf(check: Check, document: ScenarioDocument): string[] {
  return check.cases ?? document.cases.map((item) => item.key);
}

function checkProblems(
  check: Check,
  at: Path,
  tools: ReadonlySet<string>,
  keys: ReadonlySet<string>,
): DocumentProblem[] {
  const problems: DocumentProblem[] = [];
  const seen = new Set<string>();
  for (const [index, key] of (check.cases ?? []).entries()) {
    if (!keys.has(key))
      problems.push(
        problemAt([...at, 'cases', index], `names the case "${key}", which the document does not have`),
      );
    if (seen.has(key)) problems.push(problemAt([...at, 'cases', index], 'repeats a case'));
    seen.add(key);
  }
  if (check.kind === 'state') {
    const syntax = pointerProblem(check.pointer);
    if (syntax !== undefined) problems.push(problemAt([...at, 'pointer'], syntax));
  }
  if (check.kind === 'tool_call') {
    const named =
      check.assert === 'order'
        ? check.tools.map((tool, index) => [tool, ['tools', index]] as const)
        : [[check.tool, ['tool']] as const];
    for (const [tool, where] of named) {
      if (!tools.has(tool))
        problems.push(
          problemAt([...at, ...where], `names the tool "${tool}", which the world does not have`),
        );
    }
  }
  if (check.kind === 'output' && check.scorer === 'json_schema') {
    const problem = jsonSchemaProblem(check.schema);
    if (problem !== undefined)
      problems.push(problemAt([...at, 'schema'], `is not a valid JSON Schema (draft 2020-12): ${problem}`));
  }
  return problems;
}

/** Every problem of `document` beyond its schema, in document order. */
export function documentRuleProblems(document: ScenarioDocument): DocumentProblem[] {
  const problems: DocumentProblem[] = [];
  const toolNames = new Set<string>();
  for (const [index, tool] of document.world.tools.entries()) {
    if (toolNames.has(tool.name))
      problems.push(problemAt(['world', 'tools', index, 'name'], 'repeats the name of another tool'));
    toolNames.add(tool.name);
    problems.push(...toolProblems(tool, ['world', 'tools', index]));
  }
  problems.push(...stateSizeProblem(document.world.state as JsonValue, ['world', 'state']));
  const keys = new Set<string>();
  for (const [index, item] of document.cases.entries()) {
    if (keys.has(item.key))
      problems.push(problemAt(['cases', index, 'key'], 'repeats the key of another case'));
    keys.add(item.key);
    const { state, problems: stateProblems } = caseState(document.world.state as JsonValue, item);
    problems.push(
      ...stateProblems.map((problem) => ({ ...problem, path: `/cases/${index}${problem.path}` })),
    );
    if (stateProblems.length === 0 && item.state !== undefined)
      problems.push(...stateSizeProblem(state, ['cases', index, 'state']));
    const names = new Set<string>();
    for (const [fileIndex, file] of (item.files ?? []).entries()) {
      if (names.has(file.name))
        problems.push(
          problemAt(
            ['cases', index, 'files', fileIndex, 'name'],
            'repeats the name of another file of the case',
          ),
        );
      names.add(file.name);
      if (
        file.encoding === 'base64' &&
        !/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(file.content)
      ) {
        problems.push(
          problemAt(['cases', index, 'files', fileIndex, 'content'], 'is not base64 (encoding base64)'),
        );
      }
    }
  }
  const perCase = new Map<string, { names: Set<string>; checks: number; judges: number; required: number }>();
  for (const key of keys) perCase.set(key, { names: new Set(), checks: 0, judges: 0, required: 0 });
  for (const [index, check] of document.grading.checks.entries()) {
    const at = ['grading', 'checks', index];
    problems.push(...checkProblems(check, at, toolNames, keys));
    for (const key of new Set(casesOf(check, document))) {
      const tally = perCase.get(key);
      if (tally === undefined) continue;
      if (tally.names.has(check.name)) {
        problems.push(problemAt([...at, 'name'], `repeats the name of another check of the case "${key}"`));
      }
      tally.names.add(check.name);
      if (check.kind === 'llm_judge') tally.judges++;
      else tally.checks++;
      if (check.required !== false) tally.required++;
    }
  }
  for (const [index, item] of document.cases.entries()) {
    const tally = perCase.get(item.key);
    if (tally === undefined || keys.size === 0) continue;
    if (tally.required === 0)
      problems.push(
        problemAt(
          ['cases', index],
          'has no required check: every case needs at least one, or it would pass whatever the agent does',
        ),
      );
    if (tally.checks > MAX_CASE_CHECKS)
      problems.push(
        problemAt(
          ['cases', index],
          `has ${tally.checks} state, tool-call and output checks; at most ${MAX_CASE_CHECKS}`,
        ),
      );
    if (tally.judges > MAX_CASE_JUDGES)
      problems.push(
        problemAt(['cases', index], `has ${tally.judges} llm_judge checks; at most ${MAX_CASE_JUDGES}`),
      );
  }
  return problems;
}
