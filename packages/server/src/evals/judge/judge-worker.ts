/**
 * The in-server worker of hosted judge jobs. It claims queued jobs (two at a time), reads the
 * subject's bound values, calls the configured model through the `ai` package
 * (`generateText` with a JSON object output), checks the answer against the pinned metric
 * definitions and stores it as the job's result. Without a configured model a job ends in state
 * `error` (`judge_not_configured`). Model errors are recorded by type only: provider messages may
 * quote content and are not kept.
 * @module
 */
import type { LanguageModel } from 'ai';
import { inTransaction } from '../../store/sqlite-database.js';
import type { EvalContext } from '../core/eval-context.js';
import type { ResultStore } from '../runs/result-store.js';
import type { RunStore } from '../runs/run-store.js';
import { scoreProblem } from '../runs/score-rules.js';
import type { ScorerStore } from '../scorers/scorer-store.js';
import { bindingRoot, bindValues, judgeAnswerSchema, judgePrompt, readJudgeAnswer } from './judge-prompt.js';
import type { JudgeJob, JudgeStore } from './judge-store.js';

/** The judge configuration's model reference. */
export interface JudgeModelReference {
  provider: string;
  model: string;
}

/**
 * The model hosted judges call: one AI SDK language model for every job, or a function choosing
 * one by the scorer version's `provider` and `model` (`undefined`: not configured).
 */
export type JudgeModelOption =
  | LanguageModel
  | ((reference: JudgeModelReference) => LanguageModel | undefined);

interface JudgeConfig extends JudgeModelReference {
  rubric: string;
  bindings: { name: string; path: string; required: boolean }[];
  maxOutputTokens: number;
  timeoutMs: number;
  temperature?: number;
}

/** How many jobs run at once. */
const CONCURRENCY = 2;

class JobAbort extends Error {
  readonly why: 'cancelled' | 'closed';

  constructor(why: 'cancelled' | 'closed') {
    super(why);
    this.why = why;
  }
}

function errorType(error: unknown): string {
  const name = error instanceof Error ? error.name : '';
  return /^[A-Za-z][A-Za-z0-9_]{0,63}$/.test(name) ? name : 'JudgeModelError';
}

/** Runs judge jobs in the background. */
export class JudgeWorker {
  readonly #context: EvalContext;
  readonly #jobs: JudgeStore;
  readonly #runs: RunStore;
  readonly #scorers: ScorerStore;
  readonly #results: ResultStore;
  readonly #model: JudgeModelOption | undefined;
  readonly #running = new Map<string, { controller: AbortController; done: Promise<void> }>();
  #closed = false;

  constructor(
    context: EvalContext,
    stores: { jobs: JudgeStore; runs: RunStore; scorers: ScorerStore; results: ResultStore },
    model: JudgeModelOption | undefined,
  ) {
    this.#context = context;
    this.#jobs = stores.jobs;
    this.#runs = stores.runs;
    this.#scorers = stores.scorers;
    this.#results = stores.results;
    this.#model = model;
  }

  /** Requeues jobs a stopped server left running, then starts on the queue. */
  start(): void {
    inTransaction(this.#context.db, () => this.#jobs.requeueRunning());
    this.wake();
  }

  /** Starts queued jobs while fewer than two run. Call outside any transaction. */
  wake(): void {
    while (!this.#closed && this.#running.size < CONCURRENCY) {
      const job = inTransaction(this.#context.db, () => this.#jobs.claimNext());
      if (job === undefined) return;
      const controller = new AbortController();
      const done = this.#run(job, controller.signal).finally(() => {
        this.#running.delete(job.id);
        this.wake();
      });
      this.#running.set(job.id, { controller, done });
    }
  }

  /** Stops the model call of a job that was just cancelled. */
  abort(jobId: string): void {
    this.#running.get(jobId)?.controller.abort(new JobAbort('cancelled'));
  }

  /** Stops every job in flight; they are requeued when a server starts on the same store. */
  async close(): Promise<void> {
    this.#closed = true;
    const inFlight = [...this.#running.values()];
    for (const { controller } of inFlight) controller.abort(new JobAbort('closed'));
    await Promise.allSettled(inFlight.map(({ done }) => done));
  }

  #model_(reference: JudgeModelReference): LanguageModel | undefined {
    if (this.#model === undefined) return undefined;
    return typeof this.#model === 'function' ? this.#model(reference) : this.#model;
  }

  #fail(job: JudgeJob, type: string, message: string): void {
    inTransaction(this.#context.db, () => this.#jobs.fail(job.id, { type, message }));
  }

  async #run(job: JudgeJob, stop: AbortSignal): Promise<void> {
    try {
      const version = this.#scorers.getVersion(job.scorerVersionId);
      const config = (version.definition as unknown as { config: JudgeConfig }).config;
      const metrics = version.definition.metrics;
      const item = this.#runs.findItem(job.evaluationItemId)!;
      const bound = bindValues(bindingRoot(this.#runs.getSubject(item.subjectId)), config.bindings);
      if ('missing' in bound) {
        this.#fail(
          job,
          'missing_binding',
          `The required binding "${bound.missing.name}" (${bound.missing.path}) has no value in this subject.`,
        );
        return;
      }
      const model = this.#model_({ provider: config.provider, model: config.model });
      if (model === undefined) {
        this.#fail(
          job,
          'judge_not_configured',
          `No judge model is configured on this server for ${config.provider}/${config.model}: start the server with a judge model (startServer({ judgeModel })).`,
        );
        return;
      }
      const { system, prompt } = judgePrompt(config, metrics, bound.values);
      const timeout = AbortSignal.timeout(config.timeoutMs);
      let answer: unknown;
      try {
        // Loaded on the first job: the `ai` package is about 4 MiB of heap that a server that
        // only ingests would carry (and mark in every full collection) for nothing.
        const { generateText, jsonSchema, Output } = await import('ai');
        const result = await generateText({
          model,
          system,
          prompt,
          output: Output.object({ schema: jsonSchema(judgeAnswerSchema(metrics)) }),
          maxOutputTokens: config.maxOutputTokens,
          ...(config.temperature === undefined ? {} : { temperature: config.temperature }),
          maxRetries: 0,
          abortSignal: AbortSignal.any([stop, timeout]),
        });
        answer = result.output;
      } catch (error) {
        if (stop.aborted) return; // cancelled (the job says so already) or closing (requeued on restart)
        if (timeout.aborted) {
          this.#fail(
            job,
            'timeout',
            `The judge model did not answer within timeoutMs (${config.timeoutMs} ms).`,
          );
          return;
        }
        this.#fail(job, errorType(error), 'The judge model call failed; its message is not kept.');
        return;
      }
      if (stop.aborted) return;
      const score = readJudgeAnswer(answer, metrics);
      const problem = score === undefined ? undefined : scoreProblem(score, metrics);
      if (score === undefined || problem !== undefined) {
        this.#fail(
          job,
          'invalid_judge_output',
          "The judge's answer does not match the scorer version's metric definitions.",
        );
        return;
      }
      inTransaction(this.#context.db, () => {
        if (!this.#jobs.isRunning(job.id)) return;
        const resultId = this.#results.store(job.runId, {
          itemId: job.evaluationItemId,
          scorerVersionId: job.scorerVersionId,
          score,
          sourceDigest: null,
          judgeJobId: job.id,
        });
        this.#jobs.succeed(job.id, resultId);
      });
    } catch (error) {
      if (this.#closed) return;
      console.error('svc server: judge job failed:', errorType(error));
      try {
        this.#fail(job, 'internal', 'The judge job failed inside the service.');
      } catch {
        // the store is closing
      }
    }
  }
}
