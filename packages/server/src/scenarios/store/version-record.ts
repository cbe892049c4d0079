/**
 * A published scenario version as the service keeps it: the public part (what an agent, a Read
 * key and MCP may see), the world (initial state, tools with their effects, each case's starting
 * state), the sealed grading (each case's checks), and the registry records made for it.
 * @module
 */
import type { Check } from '../document/scenario-document-schema.js';
import type { JsonValue } from '../world/json-pointer.js';
import type { WorldTool } from '../world/world-types.js';

/** An agent-visible file of a case. */
export interface CaseFile {
  name: string;
  mediaType: string;
  encoding: 'utf8' | 'base64';
  content: string;
  /** Bytes of the file (decoded). */
  size: number;
  /** Lowercase hex SHA-256 of the bytes. */
  sha256: string;
}

/** What anyone allowed to read the scenario sees: never the world's data or the checks. */
export interface PublicPart {
  tools: { name: string; description: string; inputSchema: Record<string, unknown> }[];
  cases: { key: string; name?: string; inputs: unknown; files: CaseFile[] }[];
}

/** The world of the version: what its instances start from and how its tools act. */
export interface WorldPart {
  tools: WorldTool[];
  /** The starting state of each case's worlds (the initial state with the case's changes). */
  caseStates: Record<string, JsonValue>;
}

/** The sealed grading: each case's checks. Never in an answer. */
export interface GradingPart {
  checks: Record<string, Check[]>;
}

/** The registry records made for the version. */
export interface RegistryPart {
  datasetVersionId: string;
  /** Case key → the registry case. */
  caseIds: Record<string, string>;
  /** Case key → the scorer version of the case's state, tool-call and output checks (absent: none). */
  checkVersions: Record<string, string>;
  /** Case key → the sealed hosted-judge scorer version of each of its `llm_judge` checks, by check name. */
  judgeVersions: Record<string, Record<string, string>>;
}

/** A version, whole (internal). */
export interface VersionRecord {
  id: string;
  scenarioId: string;
  number: number;
  digest: string;
  name: string;
  slug: string;
  description?: string | undefined;
  createdAt: string;
  publicPart: PublicPart;
  world: WorldPart;
  grading: GradingPart;
  registry: RegistryPart;
}
