/**
 * The JSON Schema (draft 2020-12) of the scenario document, as the OpenAPI document states it (the
 * same generation from the validating zod schema, so its limits and patterns are all there). It is
 * published in the package as `@svc-run/server/scenario-document.schema.json` (the file
 * `dist/scenario-document.schema.json`), for the CLI and for editors
 * (`# yaml-language-server: $schema=…`); a test holds the file equal to this.
 * @module
 */
import { OpenAPIHono } from '@hono/zod-openapi';
import { ScenarioDocumentSchema } from './scenario-document-schema.js';

/** Where the published schema says it lives. */
export const SCENARIO_DOCUMENT_SCHEMA_ID =
  'https://unpkg.com/@svc-run/server/dist/scenario-document.schema.json';

/** The JSON Schema of a scenario document. */
export function scenarioDocumentJsonSchema(): Record<string, unknown> {
  const app = new OpenAPIHono();
  app.openAPIRegistry.register('ScenarioDocument', ScenarioDocumentSchema);
  const document = app.getOpenAPI31Document({ openapi: '3.1.0', info: { title: 'scenario', version: '1' } });
  const schema = document.components?.schemas?.ScenarioDocument as Record<string, unknown>;
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: SCENARIO_DOCUMENT_SCHEMA_ID,
    title: 'svc scenario document',
    description:
      'A Scenario: a simulated world (initial state and tools), cases the agent sees, and sealed grading checks. Publish with `svc scenario publish <file>`.',
    ...schema,
  };
}
