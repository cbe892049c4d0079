/**
 * `svc scenario publish <file>` and `svc scenario list`: publishing a scenario document (JSON or
 * YAML) to the service and listing the published scenarios, with a Read-and-write key from an env
 * file. A refused document is shown problem by problem, each at its `file:line:column` and JSON
 * Pointer, as the service found them all at once.
 * @module
 */
import { resolve } from 'node:path';
import {
  createEvaluationClient,
  type EvaluationClient,
  type Scenario,
  SvcApiError,
} from '@svc-run/sdk/evals';
import { type Command, Option } from 'commander';
import { CliError } from '../cli-error.js';
import { ExitCode } from '../exit-codes.js';
import type { CliIo } from '../io.js';
import { parseNonBlank } from '../option-parsers.js';
import { readScenarioCredentials } from './scenario/scenario-credentials.js';
import { readScenarioFile } from './scenario/scenario-file.js';

/** Options of the scenario subcommands. */
export interface ScenarioOptions {
  envFile?: string;
  json?: boolean;
}

async function clientOf(options: ScenarioOptions, io: CliIo): Promise<EvaluationClient> {
  const credentials = await readScenarioCredentials(options.envFile, io.cwd);
  try {
    return createEvaluationClient({
      apiKey: credentials.apiKey,
      baseUrl: credentials.baseUrl,
      timeoutMillis: 60_000,
    });
  } catch (error) {
    throw new CliError(`the env file ${credentials.file}: ${(error as Error).message}`, ExitCode.Usage);
  }
}

/** Runs `svc scenario publish <file>`. */
export async function publishScenario(file: string, options: ScenarioOptions, io: CliIo): Promise<void> {
  const path = resolve(io.cwd, file);
  const parsed = await readScenarioFile(path);
  const client = await clientOf(options, io);
  try {
    const published = await client.publishScenario(
      parsed.value as Parameters<EvaluationClient['publishScenario']>[0],
    );
    const { scenario, version } = published;
    if (options.json === true) {
      io.stdout.write(
        `${JSON.stringify({ created: published.created, scenario, version: { id: version.id, number: version.number, digest: version.digest } }, null, 2)}\n`,
      );
      return;
    }
    io.stdout.write(
      [
        published.created
          ? `Published ${scenario.slug} version ${version.number} (${version.tools.length} tools, ${version.cases.length} cases).`
          : `${scenario.slug} version ${version.number} holds this document already: nothing new was published.`,
        `Version ${version.id}, document sha256 ${version.digest}.`,
        'Its grading is sealed: the service never shows it again; keep this file to change it.',
        '',
      ].join('\n'),
    );
  } catch (error) {
    if (SvcApiError.isInstance(error) && error.problems !== undefined) {
      const lines = error.problems.map((problem) => {
        const at = parsed.positionOf(problem.path);
        return `  ${file}:${at.line}:${at.col} ${problem.path || '(document)'}: ${problem.message}`;
      });
      throw new CliError(
        [
          `the service refused ${file}: ${error.problems.length} problem${error.problems.length === 1 ? '' : 's'}`,
          ...lines,
        ].join('\n'),
        ExitCode.Failure,
      );
    }
    throw error;
  }
}

/** Runs `svc scenario list`. */
export async function listScenarios(options: ScenarioOptions, io: CliIo): Promise<void> {
  const client = await clientOf(options, io);
  const scenarios: Scenario[] = [];
  let after: string | null | undefined;
  do {
    const page = await client.listScenarios({ limit: 100, ...(after ? { after } : {}) });
    scenarios.push(...page.items);
    after = page.nextCursor;
  } while (after);
  if (options.json === true) {
    io.stdout.write(`${JSON.stringify(scenarios, null, 2)}\n`);
    return;
  }
  if (scenarios.length === 0) {
    io.stdout.write('No scenarios yet: publish one with svc scenario publish <file>.\n');
    return;
  }
  const width = Math.max(4, ...scenarios.map((scenario) => scenario.slug.length));
  io.stdout.write(
    [
      `${'SLUG'.padEnd(width)}  VERSIONS  UPDATED                   NAME`,
      ...scenarios.map(
        (scenario) =>
          `${scenario.slug.padEnd(width)}  ${String(scenario.versionCount).padStart(8)}  ${scenario.updatedAt.padEnd(24)}  ${scenario.name}`,
      ),
      '',
    ].join('\n'),
  );
}

const envFileOption = () =>
  new Option(
    '--env-file <file>',
    'env file with SVC_BASE_URL and a Read-and-write key (default .svc/svc.env)',
  ).argParser(parseNonBlank);

/** Adds the `scenario` command (`publish`, `list`) to `program`. */
export function registerScenarioCommand(program: Command, io: CliIo): Command {
  const scenario = program
    .command('scenario')
    .description(
      'Publish and list scenarios: simulated worlds with sealed grading, for svc eval --scenario.',
    );
  scenario
    .command('publish')
    .description('Publish a scenario document (JSON or YAML); the same document again publishes nothing new.')
    .argument('<file>', 'the scenario document (.json, .yaml or .yml)')
    .addOption(envFileOption())
    .addOption(new Option('--json', 'print the answer as JSON'))
    .addHelpText(
      'after',
      [
        '',
        'The document: name, slug, description; world (state, tools); cases; grading (sealed).',
        'Its JSON Schema: @svc-run/server/scenario-document.schema.json (for editors).',
        'Exit codes: 0 published (or unchanged), 1 refused (each problem at file:line:column), 2 usage.',
      ].join('\n'),
    )
    .action(async (file: string, options: ScenarioOptions) => {
      await publishScenario(file, options, io);
    });
  scenario
    .command('list')
    .description('List the published scenarios.')
    .addOption(envFileOption())
    .addOption(new Option('--json', 'print the scenarios as JSON'))
    .action(async (options: ScenarioOptions) => {
      await listScenarios(options, io);
    });
  return scenario;
}
