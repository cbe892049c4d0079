/**
 * What the tool server says of itself at initialization: its name, version and the instructions
 * a host shows the model (how to read traces in layers, within the budget).
 * @module
 */

/** The server's name and version (the package's; a test holds them equal). */
export const MCP_SERVER_INFO = {
  name: 'svc',
  title: 'svc traces and evaluations',
  version: '0.4.1',
} as const;

/** The instructions of the initialize result. */
export const MCP_INSTRUCTIONS = [
  'Read traces in layers: search_traces → get_trace (outline) → get_span (one span whole); verify_trace checks spans arrived.',
  'Every answer fits a budget (20,000 tokens; lower it with max_tokens) and states its size; whatever it leaves out is in cuts[], each with the exact call (next) that fetches it.',
  'Recorded content (message text, tool arguments/results, inputs, outputs) only with include_content: true.',
  'Files are digests with a state; read a stored image or audio file as resource svc://traces/{traceId}/files/{sha256}.',
].join(' ');
