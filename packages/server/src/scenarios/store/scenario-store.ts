/**
 * Scenarios and their immutable versions. Publishing a document makes a new version when it
 * differs from every version of its slug (by the SHA-256 of its canonical JSON), and answers the
 * existing version when it is the same. Each version is also put in the evaluation registry, so
 * its runs are experiments like any other: a frozen dataset version of its cases (their public
 * parts: key, inputs), a scorer version of each case's state, tool-call and output checks (one
 * boolean metric per check, named as the check), and a sealed hosted-judge scorer version per
 * `llm_judge` check. Methods run inside the calling route's transaction.
 * @module
 */
import { createHash, randomUUID } from 'node:crypto';
import type { StatementSync } from 'node:sqlite';
import { canonicalJson } from '../../evals/core/canonical-json.js';
import type { EvalContext } from '../../evals/core/eval-context.js';
import { type Page, type PageRequest, readPage } from '../../evals/core/paging.js';
import type { EvalRegistry } from '../../evals/eval-registry.js';
import { ApiError } from '../../http/api-error.js';
import { caseState, casesOf } from '../document/document-rules.js';
import type { Check, ScenarioDocument } from '../document/scenario-document-schema.js';
import type { JsonValue } from '../world/json-pointer.js';
import type { WorldTool } from '../world/world-types.js';
import type {
  CaseFile,
  GradingPart,
  PublicPart,
  RegistryPart,
  VersionRecord,
  WorldPart,
} from './version-record.js';

/** A scenario as the API shows it: its identity (from its newest version) and versions. */
export interface Scenario {
  id: string;
  name: string;
  slug: string;
  description?: string;
  latestVersionId: string;
  versionCount: number;
  createdAt: string;
  updatedAt: string;
}

/** A version as the API shows it: the public part only. */
export interface ScenarioVersion {
  id: string;
  scenarioId: string;
  number: number;
  name: string;
  slug: string;
  description?: string;
  /** SHA-256 (hex) of the published document's canonical JSON: which document this version is. */
  digest: string;
  datasetVersionId: string;
  tools: PublicPart['tools'];
  cases: PublicPart['cases'];
  createdAt: string;
}

/** The answer of a publish. */
export interface Published {
  scenario: Scenario;
  version: ScenarioVersion;
  /** False when the same document was published before: its version is answered. */
  created: boolean;
}

/** The prefix of the registry slugs of a scenario's dataset and scorer (no user slug has "--"). */
const REGISTRY_SLUG_PREFIX = 'scenario--';

/** Defaults of a scenario's hosted judges. */
const JUDGE_MAX_OUTPUT_TOKENS = 1024;
const JUDGE_TIMEOUT_MS = 60_000;

interface ScenarioRow {
  seq: number;
  id: string;
  slug: string;
  dataset_id: string;
  scorer_id: string;
  created_at: string;
  name: string;
  description: string | null;
  latest_version_id: string;
  version_count: number;
  updated_at: string;
}

interface VersionRow {
  seq: number;
  id: string;
  scenario_id: string;
  number: number;
  digest: string;
  name: string;
  description: string | null;
  public_part: string;
  world: string;
  grading: string;
  registry: string;
  created_at: string;
  slug: string;
}

const SCENARIO_SELECT = `SELECT s.seq, s.id, s.slug, s.dataset_id, s.scorer_id, s.created_at,
  v.name, v.description, v.id AS latest_version_id, v.created_at AS updated_at,
  (SELECT COUNT(*) FROM scenario_versions c WHERE c.scenario_id = s.id) AS version_count
  FROM scenarios s JOIN scenario_versions v ON v.scenario_id = s.id
    AND v.number = (SELECT MAX(number) FROM scenario_versions m WHERE m.scenario_id = s.id)`;

const VERSION_SELECT = 'SELECT v.*, s.slug FROM scenario_versions v JOIN scenarios s ON s.id = v.scenario_id';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function toScenario(row: ScenarioRow): Scenario {
  const scenario: Scenario = {
    id: row.id,
    name: row.name,
    slug: row.slug,
    latestVersionId: row.latest_version_id,
    versionCount: Number(row.version_count),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
  if (row.description !== null) scenario.description = row.description;
  return scenario;
}

function toRecord(row: VersionRow): VersionRecord {
  return {
    id: row.id,
    scenarioId: row.scenario_id,
    number: Number(row.number),
    digest: row.digest,
    name: row.name,
    slug: row.slug,
    description: row.description ?? undefined,
    createdAt: row.created_at,
    publicPart: JSON.parse(row.public_part) as PublicPart,
    world: JSON.parse(row.world) as WorldPart,
    grading: JSON.parse(row.grading) as GradingPart,
    registry: JSON.parse(row.registry) as RegistryPart,
  };
}

/** The public view of a version. */
export function publicVersion(record: VersionRecord): ScenarioVersion {
  const version: ScenarioVersion = {
    id: record.id,
    scenarioId: record.scenarioId,
    number: record.number,
    name: record.name,
    slug: record.slug,
    digest: record.digest,
    datasetVersionId: record.registry.datasetVersionId,
    tools: record.publicPart.tools,
    cases: record.publicPart.cases,
    createdAt: record.createdAt,
  };
  if (record.description !== undefined) version.description = record.description;
  return version;
}

function caseFile(
  file: ScenarioDocument['cases'][number]['files'] extends (infer F)[] | undefined ? F : never,
): CaseFile {
  const encoding = file.encoding ?? 'utf8';
  const bytes = Buffer.from(file.content, encoding === 'base64' ? 'base64' : 'utf8');
  return {
    name: file.name,
    mediaType: file.mediaType,
    encoding,
    content: file.content,
    size: bytes.length,
    sha256: createHash('sha256').update(bytes).digest('hex'),
  };
}

/** The SHA-256 (hex) of a document's canonical JSON. */
export function documentDigest(document: ScenarioDocument): string {
  return createHash('sha256').update(canonicalJson(document), 'utf8').digest('hex');
}

/** Scenarios and versions. */
export class ScenarioStore {
  readonly #context: EvalContext;
  readonly #registry: EvalRegistry;
  readonly #sql: Record<string, StatementSync>;
  /** Versions are immutable: each is read from the database once. */
  readonly #records = new Map<string, VersionRecord>();

  constructor(registry: EvalRegistry) {
    this.#context = registry.context;
    this.#registry = registry;
    const prepare = (sql: string) => registry.context.db.prepare(sql);
    this.#sql = {
      insertScenario: prepare(
        'INSERT INTO scenarios (id, slug, dataset_id, scorer_id, created_at) VALUES (?, ?, ?, ?, ?)',
      ),
      bySlug: prepare('SELECT id, dataset_id, scorer_id FROM scenarios WHERE slug = ?'),
      scenario: prepare(`${SCENARIO_SELECT} WHERE s.id = ?`),
      scenarioBySlug: prepare(`${SCENARIO_SELECT} WHERE s.slug = ?`),
      scenarios: prepare(`${SCENARIO_SELECT} WHERE s.seq > ? ORDER BY s.seq LIMIT ?`),
      insertVersion: prepare(
        `INSERT INTO scenario_versions (id, scenario_id, number, digest, name, description, public_part, world, grading,
           dataset_version_id, registry, created_at)
         VALUES (?, ?, (SELECT COALESCE(MAX(number), 0) + 1 FROM scenario_versions WHERE scenario_id = ?), ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      versionByDigest: prepare('SELECT id FROM scenario_versions WHERE scenario_id = ? AND digest = ?'),
      versionByNumber: prepare('SELECT id FROM scenario_versions WHERE scenario_id = ? AND number = ?'),
      version: prepare(`${VERSION_SELECT} WHERE v.id = ?`),
      versions: prepare(`${VERSION_SELECT} WHERE v.scenario_id = ? AND v.seq > ? ORDER BY v.seq LIMIT ?`),
    };
  }

  /** Publishes `document` (validated): a new version, or the existing one of the same document. */
  publish(document: ScenarioDocument): Published {
    const digest = documentDigest(document);
    let owner = this.#sql.bySlug!.get(document.slug) as
      | { id: string; dataset_id: string; scorer_id: string }
      | undefined;
    if (owner !== undefined) {
      const existing = this.#sql.versionByDigest!.get(owner.id, digest) as { id: string } | undefined;
      if (existing !== undefined) {
        return {
          scenario: this.getScenario(owner.id),
          version: publicVersion(this.record(existing.id)),
          created: false,
        };
      }
    } else {
      owner = this.#createScenario(document);
    }
    const id = randomUUID();
    const checks = this.#checksByCase(document);
    const registry = this.#registryRecords(document, checks, owner);
    const publicPart: PublicPart = {
      tools: document.world.tools.map((tool) => ({
        name: tool.name,
        description: tool.description,
        inputSchema: tool.arguments,
      })),
      cases: document.cases.map((item) => ({
        key: item.key,
        ...(item.name === undefined ? {} : { name: item.name }),
        inputs: item.inputs,
        files: (item.files ?? []).map(caseFile),
      })),
    };
    const world: WorldPart = {
      tools: document.world.tools as WorldTool[],
      caseStates: Object.fromEntries(
        document.cases.map((item) => [item.key, caseState(document.world.state as JsonValue, item).state]),
      ),
    };
    this.#sql.insertVersion!.run(
      id,
      owner.id,
      owner.id,
      digest,
      document.name,
      document.description ?? null,
      JSON.stringify(publicPart),
      JSON.stringify(world),
      JSON.stringify({ checks } satisfies GradingPart),
      registry.datasetVersionId,
      JSON.stringify(registry),
      this.#context.now(),
    );
    return { scenario: this.getScenario(owner.id), version: publicVersion(this.record(id)), created: true };
  }

  /** A scenario by its ID or its slug. @throws 404 when there is none. */
  getScenario(idOrSlug: string): Scenario {
    const row = (UUID.test(idOrSlug) ? this.#sql.scenario! : this.#sql.scenarioBySlug!).get(idOrSlug) as
      | ScenarioRow
      | undefined;
    if (row === undefined) throw new ApiError(404, 'not_found', 'No scenario has this ID or slug.');
    return toScenario(row);
  }

  /** A page of scenarios, oldest first. */
  listScenarios(page: PageRequest): Page<Scenario> {
    return readPage(this.#sql.scenarios!, page, toScenario);
  }

  /** A page of the versions of a scenario, oldest first. */
  listVersions(idOrSlug: string, page: PageRequest): Page<ScenarioVersion> {
    const scenario = this.getScenario(idOrSlug);
    return readPage(
      this.#sql.versions!,
      page,
      (row: VersionRow) => publicVersion(this.#remember(row)),
      scenario.id,
    );
  }

  /** The version `number` of a scenario (ID or slug), or its newest. @throws 404 when there is none. */
  versionOf(idOrSlug: string, number?: number): VersionRecord {
    const scenario = this.getScenario(idOrSlug);
    if (number === undefined) return this.record(scenario.latestVersionId);
    const row = this.#sql.versionByNumber!.get(scenario.id, number) as { id: string } | undefined;
    if (row === undefined) throw new ApiError(404, 'not_found', `The scenario has no version ${number}.`);
    return this.record(row.id);
  }

  /** A version whole (internal: the world and the sealed grading). @throws 404 when unknown. */
  record(versionId: string): VersionRecord {
    const cached = this.#records.get(versionId);
    if (cached !== undefined) return cached;
    const row = this.#sql.version!.get(versionId) as VersionRow | undefined;
    if (row === undefined) throw new ApiError(404, 'not_found', 'No scenario version has this ID.');
    return this.#remember(row);
  }

  #remember(row: VersionRow): VersionRecord {
    let record = this.#records.get(row.id);
    if (record === undefined) {
      record = toRecord(row);
      this.#records.set(row.id, record);
    }
    return record;
  }

  #createScenario(document: ScenarioDocument): { id: string; dataset_id: string; scorer_id: string } {
    const slug = `${REGISTRY_SLUG_PREFIX}${document.slug}`;
    const dataset = this.#registry.datasets.createDataset({
      name: `Scenario: ${document.name}`,
      slug,
      description: `The cases of the scenario ${document.slug} (what the agent sees), one frozen version per scenario version.`,
    });
    const scorer = this.#registry.scorers.createScorer({
      name: `Scenario checks: ${document.name}`,
      slug,
      description: `The checks of the scenario ${document.slug}, graded by the service when a trial is sealed; results are written by the service, one per check by name.`,
    });
    const id = randomUUID();
    this.#sql.insertScenario!.run(id, document.slug, dataset.id, scorer.id, this.#context.now());
    return { id, dataset_id: dataset.id, scorer_id: scorer.id };
  }

  #checksByCase(document: ScenarioDocument): Record<string, Check[]> {
    const checks: Record<string, Check[]> = Object.fromEntries(document.cases.map((item) => [item.key, []]));
    for (const check of document.grading.checks) {
      for (const key of new Set(casesOf(check, document))) checks[key]?.push(check);
    }
    return checks;
  }

  #registryRecords(
    document: ScenarioDocument,
    checks: Record<string, Check[]>,
    owner: { dataset_id: string; scorer_id: string },
  ): RegistryPart {
    const { datasets, scorers } = this.#registry;
    const version = datasets.createVersion(owner.dataset_id, undefined);
    let revision = version.revision;
    const caseIds: Record<string, string> = {};
    for (const item of document.cases) {
      const written = datasets.writeCase(
        version.id,
        {
          expectedRevision: revision,
          externalKey: item.key,
          inputs: item.inputs,
          metadata: { scenario: document.slug, ...(item.name === undefined ? {} : { name: item.name }) },
        },
        'case',
      );
      caseIds[item.key] = written.item.id;
      revision = written.version.revision;
    }
    datasets.freeze(version.id, revision);
    const checkVersions: Record<string, string> = {};
    const judgeVersions: Record<string, Record<string, string>> = {};
    const judgeOf = new Map<Check, string>();
    for (const item of document.cases) {
      const deterministic = checks[item.key]!.filter((check) => check.kind !== 'llm_judge');
      if (deterministic.length > 0) {
        checkVersions[item.key] = scorers.publishVersion(owner.scorer_id, {
          kind: 'manual',
          metrics: deterministic.map((check) => ({ name: check.name, type: 'boolean' as const })),
        }).id;
      }
      judgeVersions[item.key] = {};
      for (const check of checks[item.key]!) {
        if (check.kind !== 'llm_judge') continue;
        let versionId = judgeOf.get(check);
        if (versionId === undefined) {
          versionId = scorers.publishVersion(
            owner.scorer_id,
            {
              kind: 'llm_judge',
              metrics: [{ name: check.name, type: 'boolean' }],
              config: {
                model: check.model,
                provider: check.provider,
                rubric: check.rubric,
                bindings: [
                  { name: 'inputs', path: '/inputs', required: true },
                  { name: 'output', path: '/output', required: false },
                ],
                maxOutputTokens: check.maxOutputTokens ?? JUDGE_MAX_OUTPUT_TOKENS,
                timeoutMs: check.timeoutMs ?? JUDGE_TIMEOUT_MS,
                ...(check.temperature === undefined ? {} : { temperature: check.temperature }),
              },
            },
            { sealed: true },
          ).id;
          judgeOf.set(check, versionId);
        }
        judgeVersions[item.key]![check.name] = versionId;
      }
    }
    return { datasetVersionId: version.id, caseIds, checkVersions, judgeVersions };
  }
}
