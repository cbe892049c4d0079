/**
 * How each tool is declared and registered: a strict input schema (unknown arguments are refused,
 * so a misspelled `includeContent` is an error, not a silent default), read-only annotations, and
 * one error policy: the service's own errors (unknown IDs, bad cursors) become error results with
 * their message; anything else becomes "Internal error." with nothing of its cause.
 * @module
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { ApiError } from '../http/api-error.js';
import { ToolInputError } from './tool-input-error.js';

/** A tool of the server. */
export interface ToolDefinition<Shape extends z.ZodRawShape> {
  name: string;
  title: string;
  /** What the tool answers and when to use it: what a model reads to choose and call it. */
  description: string;
  input: Shape;
  /** Annotations beyond the defaults (read-only, closed world, idempotent). */
  annotations?: Partial<ToolAnnotations>;
  run(args: z.output<z.ZodObject<Shape>>, signal: AbortSignal): Promise<CallToolResult>;
}

/** Declares a tool (a typed identity: the definition is checked against its input shape). */
export function defineTool<Shape extends z.ZodRawShape>(tool: ToolDefinition<Shape>): ToolDefinition<Shape> {
  return tool;
}

/** An error result with `message`. */
export function errorResult(message: string): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: message }] };
}

/** The error result of a failed call: the service's own message, or "Internal error.". */
export function failureResult(tool: string, error: unknown): CallToolResult {
  if (error instanceof ApiError || error instanceof ToolInputError) return errorResult(error.message);
  // Never the message of an unexpected error: it may hold paths, SQL or recorded content.
  console.error(`svc mcp: ${tool} failed:`, error instanceof Error ? error.name : typeof error);
  return errorResult('Internal error.');
}

/** Registers `tool` on `server`. */
export function registerTool<Shape extends z.ZodRawShape>(
  server: McpServer,
  tool: ToolDefinition<Shape>,
): void {
  const inputSchema: z.ZodType = z.strictObject(tool.input);
  server.registerTool(
    tool.name,
    {
      title: tool.title,
      description: tool.description,
      inputSchema,
      annotations: {
        title: tool.title,
        readOnlyHint: true,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
        ...tool.annotations,
      },
    },
    async (args, extra) => {
      try {
        return await tool.run(args as z.output<z.ZodObject<Shape>>, extra.signal);
      } catch (error) {
        return failureResult(tool.name, error);
      }
    },
  );
}
