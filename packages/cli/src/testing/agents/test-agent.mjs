/**
 * Test support: the agent command of `svc eval`'s tests. What it does is chosen by the case's
 * inputs (`SVC_CASE_INPUTS`):
 *
 * - `behavior: "answer"` (default): writes `answer.txt` holding `inputs.answer` (or the case's
 *   member of the JSON object `EVAL_TEST_ANSWERS`, when it has one), prints to stdout and stderr,
 *   exits 0;
 * - `"exit"`: prints to stderr and exits with `inputs.exitCode`;
 * - `"hang"`: never ends on its own (the per-case timeout stops it);
 * - `"nothing"`: writes nothing and exits 0;
 * - `"block-once"`: the first time for its case, writes `<markers>/<key>.running` and blocks until
 *   `svc eval` is gone (its stdout pipe closes); later, answers;
 * - `"inventory"`: writes everything it can see (its environment, every file under its directory
 *   with its content) to `<inventories>/<key>.json`, then answers.
 *
 * Every invocation first appends the case key to `EVAL_TEST_LOG` (when set). The variables the
 * tests set are not `SVC_…` ones, which `svc eval` keeps from agents.
 * @module
 */
import { appendFileSync, existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const key = process.env.SVC_CASE_KEY ?? '';
const inputs = JSON.parse(process.env.SVC_CASE_INPUTS ?? 'null') ?? {};
const output = process.env.SVC_CASE_OUTPUT_DIR;
if (process.env.EVAL_TEST_LOG) appendFileSync(process.env.EVAL_TEST_LOG, `${key}\n`);

function answer() {
  const answers = JSON.parse(process.env.EVAL_TEST_ANSWERS ?? '{}');
  writeFileSync(join(output, 'answer.txt'), String(answers[key] ?? inputs.answer ?? ''));
  process.stdout.write(`answered ${key}\n`);
  process.stderr.write(`notes on ${key}\n`);
}

function walk(directory, found = []) {
  for (const name of readdirSync(directory)) {
    const path = join(directory, name);
    if (statSync(path).isDirectory()) walk(path, found);
    else found.push({ path: relative(process.cwd(), path), content: readFileSync(path).toString('base64') });
  }
  return found;
}

switch (inputs.behavior ?? 'answer') {
  case 'answer':
    answer();
    break;
  case 'exit':
    process.stderr.write(`failing on purpose with code ${inputs.exitCode}\n`);
    process.exit(inputs.exitCode);
    break;
  case 'hang':
    setInterval(() => undefined, 60_000);
    break;
  case 'nothing':
    break;
  case 'block-once': {
    const marker = join(process.env.EVAL_TEST_MARKERS, `${key}.running`);
    if (existsSync(marker)) {
      answer();
      break;
    }
    writeFileSync(marker, String(process.pid));
    // Blocks until svc eval is gone: a write to its closed stdout pipe then ends this process.
    process.stdout.on('error', () => process.exit(0));
    setInterval(() => process.stdout.write('.'), 50);
    break;
  }
  case 'inventory': {
    const inventory = { cwd: process.cwd(), env: process.env, files: walk(process.cwd()) };
    writeFileSync(join(process.env.EVAL_TEST_INVENTORIES, `${key}.json`), JSON.stringify(inventory));
    answer();
    break;
  }
  default:
    throw new Error(`unknown behavior ${inputs.behavior}`);
}
