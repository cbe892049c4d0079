/**
 * `@svc-run/conventions`: the tables of telemetry conventions the SDK and the server share, so
 * that capture-off, the SDK's media scanner, the server's read model (content gating) and the
 * viewer read one table, never two copies; and the case file roles an agent sees, so that the
 * managed claim and `runExperiment` hide the same files. A private workspace package: each
 * package's build bundles it (tsup `noExternal`), and it is never published.
 * @module
 */

export {
  decideExactMatch,
  decideIncludes,
  type ExactMatchDecision,
  foldCase,
  type IncludesDecision,
  jsonEqual,
} from './builtin-comparisons.js';
export { AGENT_FILE_ROLES, CASE_FILE_ROLES } from './case-file-roles.js';
export {
  CONTENT_ATTRIBUTES,
  type ContentAttributeEntry,
  type ContentConvention,
  findContentAttribute,
  isContentAttribute,
  isScannedAttribute,
} from './content-attributes.js';
export { mediaTypeOfFileName } from './extension-media-type.js';
