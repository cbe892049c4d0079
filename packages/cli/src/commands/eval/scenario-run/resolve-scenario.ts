/**
 * Finds the scenario `svc eval --scenario "<name>"` names: by ID or slug, else by its exact name.
 * @module
 */
import { type EvaluationClient, type Scenario, SvcApiError } from '@svc-run/sdk/evals';
import { CliError } from '../../../cli-error.js';
import { ExitCode } from '../../../exit-codes.js';
import { allPages } from '../all-pages.js';
import { oneLine } from '../human-report.js';
import { withRetry } from '../transient-retry.js';

/**
 * The scenario whose ID, slug or name is `name`.
 *
 * @throws {@link CliError} (exit code 1) when the project has none, or several with that name.
 */
export async function resolveScenario(client: EvaluationClient, name: string): Promise<Scenario> {
  if (/^[a-z0-9][a-z0-9-]*$/i.test(name)) {
    try {
      return await withRetry(() => client.getScenario(name));
    } catch (error) {
      if (!(SvcApiError.isInstance(error) && (error.status === 404 || error.status === 400))) throw error;
    }
  }
  const named = (await withRetry(() => allPages((page) => client.listScenarios(page)))).filter(
    (scenario) => scenario.name === name,
  );
  if (named.length === 1) return named[0]!;
  if (named.length === 0) {
    throw new CliError(
      `the project has no scenario with the name, slug or ID "${oneLine(name)}" (svc scenario list shows them; svc scenario publish <file> publishes one).`,
      ExitCode.Failure,
    );
  }
  throw new CliError(
    `several scenarios are named "${oneLine(name)}": give one's slug (${named.map((scenario) => scenario.slug).join(', ')}).`,
    ExitCode.Failure,
  );
}
