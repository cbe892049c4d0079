/**
 * The project a reference server serves, and its keys.
 * @module
 */

/** The project connection returned by `GET /api/v1/projects/current`. */
export interface Project {
  id: string;
  name: string;
  organizationId: string;
  slug: string;
}

/** The plaintext keys of the project, one per preset. */
export interface ProjectKeys {
  /** Tracing-only key: ingest, receipts, project check. */
  tracing: string;
  /** Read key: reading recorded content and files. */
  read: string;
  /** Read-and-write key: evaluation workflows and registry writes (`project_write`). */
  readWrite: string;
  /** Setup credential (`svc_setup_…`). */
  setup: string;
  /**
   * Machine credential (`svc_machine_…`) of managed targets: the service signs the requests it
   * sends them with it, and their handler claims executions and saves outcomes with it.
   */
  machine: string;
  /**
   * The MCP Read key: a key of the Read preset issued for the MCP tool server (`/mcp`, `svc mcp`),
   * the one to hand to an agent, so it can be revoked without touching other readers.
   */
  mcp: string;
}
