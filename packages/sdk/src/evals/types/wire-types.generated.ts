/**
 * GENERATED — do not edit. The evaluation registry's wire shapes, from the service's OpenAPI
 * document (the server's zod schemas), by `node scripts/generate-eval-wire-types.mjs`. The drift
 * check `wire-types.test.ts` fails when this file differs from what the server gives now.
 * @module
 */
export type paths = Record<string, never>;
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        Artifact: {
            contentType: string;
            createdAt: string;
            id: string;
            name: string;
            sha256: string;
            size: number;
            /**
             * @description pending until its bytes are uploaded
             * @enum {string}
             */
            state: "pending" | "stored";
        };
        Case: {
            createdAt: string;
            /** @description Absent when the case has no reference */
            expected?: unknown;
            externalKey: string;
            /** @description Pinned files */
            files: components["schemas"]["PinnedFile"][];
            id: string;
            /** @description Any JSON value */
            inputs: unknown;
            /**
             * @description eval_set: a case whose files are the document inputs of a direct-case run
             * @enum {string}
             */
            kind: "case" | "eval_set";
            /** @description A JSON object */
            metadata?: {
                [key: string]: unknown;
            };
            updatedAt: string;
            versionId: string;
        };
        CaseFileInput: {
            /** @description An artifact whose bytes are uploaded */
            artifactId: string;
            /** @description Default: the artifact's name */
            name?: string;
            /** @enum {string} */
            role: "source" | "attached_template" | "attached_reference" | "original" | "org_template" | "evaluator_reference";
        } | {
            contentType: string;
            /** @description The bytes, base64 (small files: the request body is at most 1 MiB) */
            data: string;
            name: string;
            /** @enum {string} */
            role: "source" | "attached_template" | "attached_reference" | "original" | "org_template" | "evaluator_reference";
        } | {
            /** @description Default: the file's name in the trace */
            name?: string;
            /** @enum {string} */
            role: "source" | "attached_template" | "attached_reference" | "original" | "org_template" | "evaluator_reference";
            trace: {
                sha256: string;
                /** @description 32 lowercase hex, or the service trace ID (UUID) */
                traceId: string;
            };
        };
        CaseWrite: {
            /** @description Omitted: no reference; null: a present reference */
            expected?: unknown;
            /** @description The version's current revision; a stale one is 409 */
            expectedRevision: number;
            /** @description Your key of the case, unique in the version: writing an existing key replaces that case */
            externalKey: string;
            /** @description At most 32 files; each 1 byte to 25 MiB */
            files?: components["schemas"]["CaseFileInput"][];
            /** @description Any JSON value */
            inputs: unknown;
            /** @description A JSON object */
            metadata?: {
                [key: string]: unknown;
            };
        };
        CaseWriteResult: {
            item: components["schemas"]["Case"];
            version: components["schemas"]["DatasetVersion"];
        };
        ClaimedExecution: {
            attempt: number;
            caseId: string;
            /** @description Names the claim in the output-file and outcome requests */
            claimId: string;
            /** @description The experiment's configuration */
            config: {
                [key: string]: unknown;
            };
            executionId: string;
            experimentId: string;
            /** @description The case files the agent sees (roles source, attached_*, original) */
            files: components["schemas"]["ClaimFile"][];
            /** @description Any JSON value */
            inputs: unknown;
            /** @description The execution's trace (traceExternalId) */
            traceId: string | null;
        };
        ClaimFile: {
            contentType: string;
            expiresAt: string;
            name: string;
            /** @enum {string} */
            role: "source" | "attached_template" | "attached_reference" | "original" | "org_template" | "evaluator_reference";
            sha256: string;
            size: number;
            /** @description Signed download link; send no Authorization */
            url: string;
        };
        CompleteExecution: {
            error?: components["schemas"]["ErrorInfo"] & unknown;
            /** @description With traceEvidence required: the stored trace must have reached this revision */
            expectedTraceRevision?: number;
            /** @description Required with traceEvidence: omit */
            omissionReason?: string;
            /** @description Any JSON value; may be omitted */
            output?: unknown;
            /** @enum {string} */
            state: "succeeded" | "error" | "cancelled";
            /** @enum {string} */
            traceEvidence?: "required" | "omit";
        };
        CreatedArtifact: {
            artifact: components["schemas"]["Artifact"];
            /** @description null when the service holds the bytes already */
            upload: {
                expiresAt: string;
                headers: {
                    [key: string]: string;
                };
                /** @enum {string} */
                method: "PUT";
                url: string;
            } | null;
        };
        CreatedExperiment: {
            /** @description The run that scores the executions */
            evaluationRunId: string;
            id: string;
        };
        CreatedJudgeJobs: {
            /** @description Job IDs, in request order */
            ids: string[];
        };
        CreateEvaluationRun: {
            name: string;
            scorerVersionIds: string[];
            subjectIds: string[];
        };
        CreateExperiment: {
            /** @description Handed to the target of every case; default {} */
            config?: {
                [key: string]: unknown;
            };
            /** @description A frozen dataset version */
            datasetVersionId: string;
            name: string;
            scorerVersionIds: string[];
        };
        CreateJudgeJobs: {
            jobs: {
                evaluationItemId: string;
                scorerVersionId: string;
            }[];
        };
        Dataset: {
            /** @description ISO 8601 */
            createdAt: string;
            description?: string;
            id: string;
            /** @description The newest version, or null before the first */
            latestVersionId: string | null;
            name: string;
            slug: string;
            versionCount: number;
        };
        DatasetVersion: {
            caseCount: number;
            createdAt: string;
            datasetId: string;
            /** @description The version whose cases this one started with */
            fromVersionId: string | null;
            frozen: boolean;
            frozenAt: string | null;
            id: string;
            /** @description 1 for the first version of the dataset, then 2, 3, … */
            number: number;
            /** @description Pass as expectedRevision to write; grows with every write */
            revision: number;
            updatedAt: string;
        };
        DeclareOutputFile: {
            claimId: string;
            contentType: string;
            name: string;
            sha256: string;
            size: number;
        };
        ErrorInfo: {
            message?: string;
            type: string;
        };
        EvaluationItem: {
            createdAt: string;
            id: string;
            runId: string;
            subjectId: string;
        };
        EvaluationResult: {
            createdAt: string;
            error?: components["schemas"]["ErrorInfo"] & unknown;
            evaluationItemId: string;
            /** @description Any JSON value; may be omitted */
            evidence?: unknown;
            explanation?: string;
            id: string;
            judgeJobId: string | null;
            /** @description scored: one per metric of the pinned definition */
            metrics?: components["schemas"]["ScoreMetric"][];
            runId: string;
            scorerVersionId: string;
            sourceDigest?: string;
            /** @enum {string} */
            status: "scored" | "error" | "skipped";
            subjectId: string;
        };
        EvaluationRun: {
            createdAt: string;
            experimentId: string | null;
            id: string;
            itemCount: number;
            name: string;
            scorerVersionIds: string[];
        };
        Execution: {
            /** @description 1 for the first attempt at the case, then 2, 3, … */
            attempt: number;
            caseId: string;
            completedAt: string | null;
            error?: components["schemas"]["ErrorInfo"];
            evaluationItemId: string | null;
            experimentId: string;
            id: string;
            omissionReason: string | null;
            /** @description Absent when the target returned nothing */
            output?: unknown;
            previousExecutionId: string | null;
            /** @description Set when a later attempt replaced this one */
            replacedByExecutionId: string | null;
            startedAt: string;
            /** @enum {string} */
            state: "started" | "succeeded" | "error" | "cancelled";
            subjectId: string | null;
            /** @enum {string|null} */
            traceEvidence: "required" | "omit" | null;
            /** @description The OpenTelemetry trace ID of the attempt */
            traceExternalId: string | null;
            traceSnapshotId: string | null;
        };
        ExecutionCompletion: {
            evaluationItemId: string;
            executionId: string;
            subjectId: string;
            traceSnapshotId: string | null;
        };
        Experiment: {
            caseCount: number;
            /** @description A JSON object */
            config: {
                [key: string]: unknown;
            };
            createdAt: string;
            datasetId: string;
            datasetVersionId: string;
            evaluationRunId: string;
            finishedAt: string | null;
            id: string;
            name: string;
            scorerVersionIds: string[];
        };
        ExperimentCase: {
            case: components["schemas"]["Case"];
            /** @description Every attempt, oldest first */
            executions: components["schemas"]["Execution"][];
            experimentId: string;
            /** @description Results of every attempt, oldest first */
            results: components["schemas"]["EvaluationResult"][];
        };
        ExperimentItem: components["schemas"]["Case"] & {
            caseId: string;
            latestExecution: components["schemas"]["Execution"] | null;
        };
        FinishedExperiment: {
            finishedAt: string;
            id: string;
        };
        Identity: {
            description?: string;
            name: string;
            slug: string;
        };
        JudgeBudget: {
            /** @description Jobs the project may create */
            jobLimit: number;
            jobsRemaining: number;
            /** @description Jobs created, except those cancelled before they started */
            jobsUsed: number;
            /** @description Whether the server has a judge model; without one, jobs end in error */
            modelConfigured: boolean;
        };
        JudgeJob: {
            cancelReason: string | null;
            createdAt: string;
            error: components["schemas"]["ErrorInfo"] & (Record<string, never> | null);
            evaluationItemId: string;
            finishedAt: string | null;
            id: string;
            /** @description The result the judge produced (state succeeded) */
            resultId: string | null;
            runId: string;
            scorerVersionId: string;
            startedAt: string | null;
            /** @enum {string} */
            state: "queued" | "running" | "succeeded" | "error" | "cancelled";
        };
        MetricDefinition: {
            name: string;
            /** @enum {string} */
            type: "boolean";
        } | {
            name: string;
            /** @enum {string} */
            type: "text";
        } | {
            max?: number;
            min?: number;
            name: string;
            /** @enum {string} */
            type: "number";
        } | {
            categories: string[];
            name: string;
            /** @enum {string} */
            type: "category";
        };
        OutputFile: {
            artifactId: string;
            contentType: string;
            name: string;
            sha256: string;
            size: number;
        };
        PinnedFile: {
            /** @description The artifact the bytes came from, if any */
            artifactId: string | null;
            contentType: string;
            name: string;
            /** @enum {string} */
            role: "source" | "attached_template" | "attached_reference" | "original" | "org_template" | "evaluator_reference";
            sha256: string;
            size: number;
            /** @description The trace (32 hex) the file was copied from, if any */
            sourceTraceId: string | null;
        };
        ResultSubmissionItem: {
            error?: components["schemas"]["ErrorInfo"] & unknown;
            evaluationItemId: string;
            /** @description Any JSON value; may be omitted */
            evidence?: unknown;
            explanation?: string;
            /** @description scored: one per metric of the pinned definition */
            metrics?: components["schemas"]["ScoreMetric"][];
            scorerVersionId: string;
            /** @description Required for local_code scorer versions: the version's digest */
            sourceDigest?: string;
            /** @enum {string} */
            status: "scored" | "error" | "skipped";
        };
        SavedOutcome: {
            evaluationItemId: string;
            executionId: string;
            outputFiles: components["schemas"]["OutputFile"][];
            subjectId: string;
            traceSnapshotId: string | null;
        };
        ScoreMetric: {
            name: string;
            passed?: boolean;
            value: boolean | number | string;
        };
        Scorer: {
            createdAt: string;
            description?: string;
            id: string;
            latestVersionId: string | null;
            name: string;
            slug: string;
            versionCount: number;
        };
        ScorerVersion: {
            createdAt: string;
            definition: components["schemas"]["StoredScorerDefinition"];
            id: string;
            number: number;
            scorerId: string;
            /**
             * @description Present on a scenario's sealed hosted judge: its config (rubric) is never shown
             * @enum {boolean}
             */
            sealed?: true;
        };
        StartExecution: {
            /** @description Needed to replace an execution still started (it may have completed) */
            allowUncertainRetry?: boolean;
            /** @description The case's latest execution, which this attempt replaces */
            previousExecutionId?: string;
            /** @description The trace of the attempt; needed for traceEvidence: required */
            traceExternalId?: string;
        };
        StoredScorerDefinition: {
            /** @enum {string} */
            kind: "builtin" | "local_code" | "manual" | "llm_judge";
            metrics: components["schemas"]["MetricDefinition"][];
        } & {
            [key: string]: unknown;
        };
        Subject: {
            caseId: string;
            createdAt: string;
            error?: components["schemas"]["ErrorInfo"];
            executionId: string;
            /** @enum {string} */
            executionState: "succeeded" | "error" | "cancelled";
            /** @description Any JSON value; may be omitted */
            expected?: unknown;
            experimentId: string;
            id: string;
            inputs?: unknown;
            /** @description A JSON object */
            metadata?: {
                [key: string]: unknown;
            };
            /** @description Any JSON value; may be omitted */
            output?: unknown;
            traceId: string | null;
            traceSnapshotId: string | null;
        };
        SubmittedResults: {
            /** @description Result IDs, in submission order */
            ids: string[];
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type Artifact = components['schemas']['Artifact'];
export type Case = components['schemas']['Case'];
export type CaseFileInput = components['schemas']['CaseFileInput'];
export type CaseWrite = components['schemas']['CaseWrite'];
export type CaseWriteResult = components['schemas']['CaseWriteResult'];
export type ClaimedExecution = components['schemas']['ClaimedExecution'];
export type ClaimFile = components['schemas']['ClaimFile'];
export type CompleteExecution = components['schemas']['CompleteExecution'];
export type CreatedArtifact = components['schemas']['CreatedArtifact'];
export type CreatedExperiment = components['schemas']['CreatedExperiment'];
export type CreatedJudgeJobs = components['schemas']['CreatedJudgeJobs'];
export type CreateEvaluationRun = components['schemas']['CreateEvaluationRun'];
export type CreateExperiment = components['schemas']['CreateExperiment'];
export type CreateJudgeJobs = components['schemas']['CreateJudgeJobs'];
export type Dataset = components['schemas']['Dataset'];
export type DatasetVersion = components['schemas']['DatasetVersion'];
export type DeclareOutputFile = components['schemas']['DeclareOutputFile'];
export type ErrorInfo = components['schemas']['ErrorInfo'];
export type EvaluationItem = components['schemas']['EvaluationItem'];
export type EvaluationResult = components['schemas']['EvaluationResult'];
export type EvaluationRun = components['schemas']['EvaluationRun'];
export type Execution = components['schemas']['Execution'];
export type ExecutionCompletion = components['schemas']['ExecutionCompletion'];
export type Experiment = components['schemas']['Experiment'];
export type ExperimentCase = components['schemas']['ExperimentCase'];
export type ExperimentItem = components['schemas']['ExperimentItem'];
export type FinishedExperiment = components['schemas']['FinishedExperiment'];
export type Identity = components['schemas']['Identity'];
export type JudgeBudget = components['schemas']['JudgeBudget'];
export type JudgeJob = components['schemas']['JudgeJob'];
export type MetricDefinition = components['schemas']['MetricDefinition'];
export type OutputFile = components['schemas']['OutputFile'];
export type PinnedFile = components['schemas']['PinnedFile'];
export type ResultSubmissionItem = components['schemas']['ResultSubmissionItem'];
export type SavedOutcome = components['schemas']['SavedOutcome'];
export type ScoreMetric = components['schemas']['ScoreMetric'];
export type Scorer = components['schemas']['Scorer'];
export type ScorerVersion = components['schemas']['ScorerVersion'];
export type StartExecution = components['schemas']['StartExecution'];
export type StoredScorerDefinition = components['schemas']['StoredScorerDefinition'];
export type Subject = components['schemas']['Subject'];
export type SubmittedResults = components['schemas']['SubmittedResults'];
export type $defs = Record<string, never>;
export type operations = Record<string, never>;
