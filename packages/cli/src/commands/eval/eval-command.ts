/**
 * `svc eval`: the command-line evaluator. This version has the direct-case form, `svc eval --set`.
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

/** `--wait` without a value: five minutes. */
export const DEFAULT_WAIT_SECONDS = 300;
/** `--timeout` without a value: ten minutes per case. */
export const DEFAULT_TIMEOUT_SECONDS = 600;

const DAY = 86_400;

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
      '(required) the eval set (dataset slug); its latest frozen version unless @<number> is given',
    ).argParser(parseEvalSetReference),
    new Option('--scorer <slug>', '(required) a scorer (its latest version); repeat for several').argParser(
      collect(parseSlug),
    ),
    new Option(
      '--command <command>',
      '(required) the agent command, run by the shell once per case in its own directory',
    ).argParser(parseNonBlank),
  ];
  const command = program
    .command('eval')
    .description("Run an eval set: an agent command once per case, scored by the registry's scorers.")
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
      new Option('--timeout <seconds>', 'per-case timeout of the command')
        .argParser(secondsParser(1, DAY))
        .default(DEFAULT_TIMEOUT_SECONDS),
    )
    .addOption(
      new Option(
        '--checkpoint-dir <dir>',
        'where the run is kept, to resume it (default: .svc/runs/<set>-<hash>)',
      ).argParser(parseNonBlank),
    )
    .addOption(
      new Option('--retry-errors', 'run again the errored cases of the last run of this command').default(
        false,
      ),
    )
    .addOption(
      new Option('--concurrency <n>', 'cases run at once, 1 to 16')
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
        'Exit codes: 0 every case passed; 1 a case failed, errored or has checks pending (or the',
        'run could not be made); 2 usage error; 130 interrupted (rerun the same command to resume).',
      ].join('\n'),
    )
    .hook('preAction', (self) => {
      for (const option of required) {
        if (self.getOptionValue(option.attributeName()) === undefined) {
          self.error(`error: required option '${option.flags}' not specified`, {
            code: 'commander.missingMandatoryOptionValue',
            exitCode: ExitCode.Usage,
          });
        }
      }
    })
    .action(async (options: EvalOptions) => {
      setExitCode(await runEval(options, io, hooks));
    });
  return command;
}
