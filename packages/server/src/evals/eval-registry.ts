/**
 * The evaluation registry: its stores on the embedded database, built once per server.
 * @module
 */
import type { DatabaseSync } from 'node:sqlite';
import type { TraceStore } from '../ingest/trace-store.js';
import type { TraceFiles } from '../media/trace-files.js';
import { createEvalContext, type EvalContext } from './core/eval-context.js';
import { DatasetStore } from './datasets/dataset-store.js';
import { ExperimentStore } from './experiments/experiment-store.js';
import { TraceSnapshots } from './experiments/trace-snapshots.js';
import { CaseFileLinks } from './files/case-file-links.js';
import { CaseFiles } from './files/case-files.js';
import { JudgeStore } from './judge/judge-store.js';
import { type JudgeModelOption, JudgeWorker } from './judge/judge-worker.js';
import { ManagedDeliveries } from './managed/managed-deliveries.js';
import { ManagedStore } from './managed/managed-store.js';
import { TargetAddressPolicy, type TargetLookup } from './managed/target-address-policy.js';
import { ResultStore } from './runs/result-store.js';
import { RunStore } from './runs/run-store.js';
import { ScorerStore } from './scorers/scorer-store.js';

/** What the registry is built on. */
export interface EvalRegistryOptions {
  /** The open, migrated database of the server. */
  db: DatabaseSync;
  /** The trace store: completions with trace evidence snapshot their trace from it. */
  traceStore: TraceStore;
  /**
   * The media files of traces: a snapshot records which of the files it lists its trace held
   * when it was taken. Without them, snapshot files are answered as never stored.
   */
  traceFiles?: TraceFiles | undefined;
  /** The model hosted judge jobs call; without one, jobs end in error (`judge_not_configured`). */
  judgeModel?: JudgeModelOption | undefined;
  /** Hosted judge jobs the project may create (the budget). Default {@link DEFAULT_JUDGE_JOB_LIMIT}. */
  judgeJobLimit?: number | undefined;
  /**
   * The project's machine credential: requests delivered to managed targets are signed with it.
   * Without it, dispatches fail to deliver.
   */
  machineCredential?: string | undefined;
  /**
   * Managed targets at loopback, private, link-local and other non-public addresses are refused
   * (at registration and at every connection) unless this is true. Default false.
   */
  allowPrivateTargets?: boolean | undefined;
  /** How managed-target host names are resolved; default the system resolver (tests simulate DNS). */
  targetLookup?: TargetLookup | undefined;
  /**
   * Case files: the media files of traces (records and the blob store, shared), the link-signing
   * key and link lifetimes. Without them, case writes with files are refused.
   */
  caseFiles?:
    | { files: TraceFiles; linkSecret: Buffer; uploadLinkTtlMillis: number; downloadLinkTtlMillis: number }
    | undefined;
}

/** The default hosted judge budget, in jobs. */
export const DEFAULT_JUDGE_JOB_LIMIT = 10_000;

/** The evaluation registry of one server. */
export interface EvalRegistry {
  readonly context: EvalContext;
  readonly datasets: DatasetStore;
  readonly caseFiles: CaseFiles;
  readonly scorers: ScorerStore;
  readonly runs: RunStore;
  readonly snapshots: TraceSnapshots;
  readonly experiments: ExperimentStore;
  readonly results: ResultStore;
  readonly judgeJobs: JudgeStore;
  readonly judgeWorker: JudgeWorker;
  /** Managed targets, dispatches, claims and outcomes. */
  readonly managed: ManagedStore;
  /** The background deliveries of dispatches to managed targets. */
  readonly deliveries: ManagedDeliveries;
  /** Where managed targets may be (checked when registered and when a delivery connects). */
  readonly targetAddresses: TargetAddressPolicy;
  /** Stops background work (judge jobs and deliveries in flight). */
  close(): Promise<void>;
}

/** Builds the registry. */
export function createEvalRegistry(options: EvalRegistryOptions): EvalRegistry {
  const context = createEvalContext(options.db, options.traceStore);
  const datasets = new DatasetStore(context);
  const files = options.caseFiles;
  const caseFiles = new CaseFiles(
    context,
    files === undefined
      ? undefined
      : {
          files: files.files,
          links: new CaseFileLinks(files.linkSecret),
          uploadLinkTtlMillis: files.uploadLinkTtlMillis,
          downloadLinkTtlMillis: files.downloadLinkTtlMillis,
          now: Date.now,
        },
  );
  const scorers = new ScorerStore(context);
  const runs = new RunStore(context);
  const snapshots = new TraceSnapshots(context, options.traceFiles?.records);
  const results = new ResultStore(context, { runs, scorers });
  const judgeJobs = new JudgeStore(
    context,
    { runs, scorers, results },
    {
      jobLimit: options.judgeJobLimit ?? DEFAULT_JUDGE_JOB_LIMIT,
      modelConfigured: options.judgeModel !== undefined,
    },
  );
  const judgeWorker = new JudgeWorker(
    context,
    { jobs: judgeJobs, runs, scorers, results },
    options.judgeModel,
  );
  judgeWorker.start();
  const experiments = new ExperimentStore(context, { datasets, scorers, runs, snapshots });
  const managed = new ManagedStore(context, { experiments, datasets, caseFiles });
  const targetAddresses = new TargetAddressPolicy({
    allowPrivateTargets: options.allowPrivateTargets,
    lookup: options.targetLookup,
  });
  const deliveries = new ManagedDeliveries(managed, {
    machineCredential: options.machineCredential,
    addressPolicy: targetAddresses,
  });
  return {
    context,
    datasets,
    caseFiles,
    scorers,
    runs,
    snapshots,
    experiments,
    results,
    judgeJobs,
    judgeWorker,
    managed,
    deliveries,
    targetAddresses,
    close: async () => {
      await deliveries.close();
      await judgeWorker.close();
    },
  };
}
