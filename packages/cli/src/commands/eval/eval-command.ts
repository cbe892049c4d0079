/**
 * `svc eval`: the command-line evaluator, in three modes: the direct-case form `svc eval --set`,
 * the one-shot scenario run `svc eval --scenario "<name>" <agent file>`, and the worker
 * `svc eval --worker <agent file>` serving runs launched from the viewer or `launch_local_run`.
 * @module
 */
import { type Command, Option } from 'commander';
import { ExitCode } from '../../exit-codes.js';
import type { CliIo } from '../../io.js';
import { collect, integerParser, parseId, parseNonBlank, secondsParser } from '../../option-parsers.js';
import type { EvalHooks } from './eval-hooks.js';
import type { EvalOptions } from './eval-options.js';

import { parseEvalSetReference, parseSlug } from './eval-set-reference.js';
import { runEval } from './run-eval.js';
import { runScenarioEval } from './scenario-run/run-scenario-eval.js';
import { runWorker } from './scenario-run/run-worker.js';

/** `--wait` without a value: five minutes. */
export const DEFAULT_WAIT_SECONDS = 300;
/** `--timeout` without a value: ten minutes per case. */
export const DEFAULT_TIMEOUT_SECONDS = 600;

const DAY = 86_400;

/** The options only `--set` takes, and those `--scenario` and `--worker` take besides the shared ones. */
const SET_ONLY = ['scorer', 'command', 'revision', 'junit', 'retryErrors', 'scorerModule'] as const;
const SCENARIO_ONLY = ['trials'] as const;
const NOT_WORKER = ['json', 'baseline', 'wait'] as const;

type Mode = 'set' | 'scenario' | 'worker';

/** What the scenario modes add to the parsed options. */
interface EvalModeOptions {
  scenario?: string;
  worker?: string;
  trials: number;
}

/**
 * Adds the `eval` subcommand to `program`. Its exit code goes to `setExitCode` (0 every case
 * passed, 1 otherwise).
 */
export function registerEvalCommand(
  program: Command,
  io: CliIo,
  setExitCode: (code: ExitCode) => void,
  hooks: EvalHooks = {},
): Command {
  // Required options are checked after unknown options (commander checks `makeOptionMandatory`
  // first), so `svc eval --bogus` names the unknown flag rather than a missing one.
  const required = [
    new Option(
      '--set <slug[@version]>',
      'the eval set (dataset slug); its latest frozen version unless @<number> is given',
    ).argParser(parseEvalSetReference),
    new Option(
      '--scorer <slug>',
      'with --set (required): a scorer (its latest version); repeat for several',
    ).argParser(collect(parseSlug)),
    new Option(
      '--command <command>',
      'with --set (required): the agent command, run by the shell once per case in its own directory',
    ).argParser(parseNonBlank),
  ];
  const command = program
    .command('eval')
    .description(
      "Run an eval set (--set: an agent command once per case, scored by the registry's scorers) or a scenario (--scenario: an agent file in simulated worlds; --worker: serve launched runs).",
    )
    .argument('[agent-file]', 'with --scenario: the agent file (exports runMyAgent(inputs, context))')
    .addOption(
      new Option(
        '--scenario <name>',
        'run a published scenario (its name, slug or ID) with the agent file: each case in a fresh world, sealed and graded',
      ).argParser(parseNonBlank),
    )
    .addOption(
      new Option(
        '--worker <agent-file>',
        'serve scenario runs launched from the viewer or launch_local_run with this agent file, until Ctrl-C',
      ).argParser(parseNonBlank),
    )
    .addOption(
      new Option('--trials <k>', 'with --scenario: trials of each case, 1 to 100 (pass^k)')
        .argParser(integerParser(1, 100))
        .default(1),
    )
    .addOption(required[0]!)
    .addOption(required[1]!)
    .addOption(required[2]!)
    .addOption(
      new Option(
        '--revision <rev>',
        'the agent revision this run evaluates (a commit, a tag), recorded on the run',
      ).argParser(parseNonBlank),
    )
    .addOption(
      new Option(
        '--wait <seconds>',
        'how long to wait for grading by hosted judges; cases not graded by then are pending',
      )
        .argParser(secondsParser(0, DAY))
        .default(DEFAULT_WAIT_SECONDS),
    )
    .addOption(
      new Option(
        '--json',
        'print the run as the JSON document on stdout (the report goes to stderr)',
      ).default(false),
    )
    .addOption(
      new Option('--junit <file>', 'also write a JUnit XML report to <file>').argParser(parseNonBlank),
    )
    .addOption(
      new Option(
        '--env-file <file>',
        'SVC_BASE_URL and a Read-and-write key (default: .svc/svc.env, written by svc login)',
      ).argParser(parseNonBlank),
    )
    .addOption(
      new Option('--baseline <experiment-id>', 'compare with a previous experiment, case by case').argParser(
        parseId,
      ),
    )
    .addOption(
      new Option(
        '--content',
        "capture content in the run's traces and keep case outputs, output files, errors and explanations on the service",
      ).default(false),
    )
    .addOption(
      new Option(
        '--timeout <seconds>',
        'per-case timeout of the command (with --scenario, --worker: of runMyAgent per trial)',
      )
        .argParser(secondsParser(1, DAY))
        .default(DEFAULT_TIMEOUT_SECONDS),
    )
    .addOption(
      new Option(
        '--checkpoint-dir <dir>',
        'where the run is kept, to resume it (default: .svc/runs/<set>-<hash>; --worker: .svc/worker)',
      ).argParser(parseNonBlank),
    )
    .addOption(
      new Option('--retry-errors', 'run again the errored cases of the last run of this command').default(
        false,
      ),
    )
    .addOption(
      new Option('--concurrency <n>', 'cases (trials with --scenario, --worker) run at once, 1 to 16')
        .argParser(integerParser(1, 16))
        .default(1),
    )
    .addOption(
      new Option(
        '--scorer-module <file>',
        'a module exporting local-code scorers (defineLocalScorer); repeatable',
      )
        .argParser(collect(parseNonBlank))
        .default([]),
    )
    .addHelpText(
      'after',
      [
        '',
        'For each case the command runs once, in a private directory: SVC_CASE_INPUTS holds the',
        "case's inputs (JSON), its files are under files/<role>/<name> (roles source,",
        'attached_template, attached_reference, original), and it writes its outputs to',
        'SVC_CASE_OUTPUT_DIR (optional summary.txt, and manifest.json {"primary": "<file>"}).',
        'A command that exits non-zero, runs past --timeout or writes nothing is an errored case.',
        '',
        'With --scenario "<name>" <agent file>, the file (JavaScript, or TypeScript Node runs as',
        'it is) exports runMyAgent(inputs, context); for each case and trial the service opens a',
        'fresh world, and the agent gets context.mcp (an MCP client on it), context.tools (its tools',
        'as async functions), context.files and context.span; its return value is sealed and graded.',
        'With --worker <agent file>, svc eval registers a local agent and serves the runs launched',
        'on it until Ctrl-C (which seals the trials under way and gives the rest back).',
        '',
        'Exit codes: 0 every case passed; 1 a case failed, errored or has checks pending (or the',
        'run could not be made); 2 usage error; 130 interrupted (rerun the same command to resume).',
      ].join('\n'),
    )
    .hook('preAction', (self) => {
      const usage = (message: string) =>
        self.error(`error: ${message}`, { code: 'svc.eval.usage', exitCode: ExitCode.Usage });
      const given = (name: string) => self.getOptionValueSource(name) === 'cli';
      const modes = (['set', 'scenario', 'worker'] as const).filter((name) => given(name));
      if (modes.length > 1) usage(`--${modes.join(', --')} are different modes: give one of them`);
      const mode: Mode = modes[0] ?? 'set';
      const agentFile = self.args[0];
      const refuse = (names: readonly string[]) => {
        for (const name of names.filter(given)) {
          const flag = self.options.find((option) => option.attributeName() === name)!.flags;
          usage(`option '${flag}' is not used with --${mode}`);
        }
      };
      if (mode === 'scenario') {
        refuse(SET_ONLY);
        if (agentFile === undefined)
          usage('missing the agent file: svc eval --scenario "<name>" <agent file>');
        return;
      }
      if (agentFile !== undefined) {
        usage(
          mode === 'worker'
            ? `unexpected argument '${agentFile}': the agent file is --worker's value`
            : `unexpected argument '${agentFile}' (an agent file goes with --scenario)`,
        );
      }
      if (mode === 'worker') {
        refuse([...SET_ONLY, ...SCENARIO_ONLY, ...NOT_WORKER]);
        return;
      }
      refuse(SCENARIO_ONLY);
      for (const option of required) {
        if (self.getOptionValue(option.attributeName()) === undefined) {
          self.error(`error: required option '${option.flags}' not specified`, {
            code: 'commander.missingMandatoryOptionValue',
            exitCode: ExitCode.Usage,
          });
        }
      }
    })
    .action(async (agentFile: string | undefined, options: EvalOptions & EvalModeOptions) => {
      if (options.scenario !== undefined) {
        setExitCode(
          await runScenarioEval({ ...options, scenario: options.scenario, agentFile: agentFile! }, io, hooks),
        );
      } else if (options.worker !== undefined) {
        setExitCode(await runWorker({ ...options, agentFile: options.worker }, io, hooks));
      } else {
        setExitCode(await runEval(options, io, hooks));
      }
    });
  return command;
}
