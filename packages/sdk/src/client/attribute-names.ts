/**
 * The attributes the SDK's helpers write. Content attributes among them are stripped when content
 * capture is off.
 * @module
 */

/** JSON input of a `withSpan` span (OpenInference's input attribute). */
export const ATTR_INPUT_VALUE = 'input.value';
export const ATTR_INPUT_MIME_TYPE = 'input.mime_type';
/** JSON output of a `withSpan` span. */
export const ATTR_OUTPUT_VALUE = 'output.value';
export const ATTR_OUTPUT_MIME_TYPE = 'output.mime_type';
export const ATTR_CONVERSATION_ID = 'gen_ai.conversation.id';
export const ATTR_USER_ID = 'user.id';
export const ATTR_OPERATION_NAME = 'gen_ai.operation.name';
export const ATTR_TOOL_NAME = 'gen_ai.tool.name';
export const ATTR_TOOL_CALL_ARGUMENTS = 'gen_ai.tool.call.arguments';
export const ATTR_TOOL_CALL_RESULT = 'gen_ai.tool.call.result';
export const ATTR_MCP_SERVER_NAME = 'mcp.server.name';
export const ATTR_ERROR_TYPE = 'error.type';
export const ATTR_INPUT_MESSAGES = 'gen_ai.input.messages';
export const ATTR_OUTPUT_MESSAGES = 'gen_ai.output.messages';
/** The event name of the inference-details log record (GenAI semantic conventions). */
export const INFERENCE_DETAILS_EVENT = 'gen_ai.client.inference.operation.details';
