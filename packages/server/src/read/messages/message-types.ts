/**
 * The normalized form of the messages a span or log record recorded, whatever the convention
 * (GenAI semantic conventions, the Vercel AI SDK's `ai.*`, OpenInference's flattened attributes,
 * OpenLLMetry's indexed attributes, Langfuse/Traceloop entity, observation and trace values) and
 * whatever the provider's message format inside them (OpenAI chat and Responses, Anthropic,
 * Gemini, Bedrock Converse, MCP tool results, the AI SDK's own parts).
 *
 * One form serves the read API (`spanDetail`), the viewer and the MCP tools, so all three say the
 * same. It is the full form: content gating (`includeContent`) is applied afterwards by the read
 * model, which replaces text and values with their presence and size.
 * @module
 */

/** Where in the record a message or part came from: the attribute (or `body` of a log record) and the JSON pointer (RFC 6901) into its parsed value. */
export interface ValueLocation {
  /** The attribute name, or `body` for a log record's body. */
  attribute: string;
  /** JSON pointer into the attribute's parsed value; `""` for the whole value. */
  pointer: string;
}

/** A file that sits in a message: the bytes were uploaded (digest form) or are still inline. */
export interface MessageFile {
  /**
   * The file's `svc.blobs` key: `<attribute>#<pointer of the part>` (`body#<pointer>` in a log
   * record), as the SDK lists it (see the spec's "svc.blobs keys").
   */
  key: string;
  /** Lowercase hex SHA-256 of the decoded bytes. */
  sha256: string;
  /** Decoded size in bytes. */
  size: number;
  /** Media type, as listed (raw PCM as `audio/pcm;rate=<rate>;channels=<n>`). */
  contentType: string;
  /** The file's name (a valid name from the part or its `svc.blobs` entry), when it has one. */
  name?: string;
  /**
   * `digest` when the record holds the digest form (the bytes left the record); `inline` when the
   * record still holds the bytes (a data: URL or base64 part, e.g. sent by a plain OpenTelemetry
   * exporter): the server computed `sha256` and `size` from them, and they can be served from
   * the record itself.
   */
  form: 'digest' | 'inline';
  /**
   * For `form: 'inline'`: where the encoded bytes are (the string holding the data: URL or the
   * base64 text), so that the read model can serve them.
   */
  bytesAt?: ValueLocation;
}

/** A reference to a file held elsewhere: never fetched, never uploaded (spec "Remote references"). */
export type RemoteReference =
  /** A web URL (`https:`/`http:`), shown as a link; or a `gs://`/`s3://`-style object-store URI. */
  | { kind: 'uri'; uri: string; objectStore: boolean; mediaType?: string; name?: string }
  /** A provider file ID (OpenAI `file-…`, Anthropic `file_…`, Gemini `files/…` URIs excluded: those are `uri`). */
  | { kind: 'file_id'; fileId: string; provider?: string; mediaType?: string; name?: string }
  /** An external platform's media reference, e.g. Langfuse `@@@langfuseMedia:type=…|id=…|source=…@@@`. */
  | { kind: 'media_reference'; id: string; platform: string; mediaType?: string; reference: string };

/** One part of a normalized message. Every part knows where it came from. */
export type MessagePart =
  | { type: 'text'; text: string; at: ValueLocation }
  | { type: 'reasoning'; text: string; at: ValueLocation }
  | { type: 'file'; file: MessageFile; at: ValueLocation }
  | { type: 'remote'; reference: RemoteReference; at: ValueLocation }
  | {
      type: 'tool_call';
      /** The call's ID, when the format gives one. */
      id?: string;
      name: string;
      /** The arguments as recorded: a JSON value, or the string a format keeps them in. */
      arguments: unknown;
      at: ValueLocation;
    }
  | {
      type: 'tool_result';
      id?: string;
      name?: string;
      /** The result's own parts (text, files, remote references), in order. */
      parts: MessagePart[];
      /** True when the tool reported an error. */
      isError?: boolean;
      at: ValueLocation;
    }
  /** A part of a shape none of the formats above has: kept as the JSON value it is. */
  | { type: 'other'; value: unknown; at: ValueLocation };

/** One normalized message. */
export interface NormalizedMessage {
  /** `input` for what went to the model (prompt, request), `output` for what came back. */
  direction: 'input' | 'output';
  /** As recorded: `system`, `user`, `assistant`, `tool`, `developer`, `model` (Gemini) etc. */
  role: string;
  /** The participant's name, when recorded (an OpenAI `name`, a tool message's tool name). */
  name?: string;
  parts: MessagePart[];
  /** Where the message is: its attribute and pointer (for flattened attributes, the common prefix as `attribute`, pointer `""`). */
  at: ValueLocation;
  /** The convention that recorded it (`GenAI semantic conventions`, `Vercel AI SDK`, `OpenInference`, `OpenLLMetry`, `Langfuse`, `Traceloop`). */
  convention: string;
}

/** What a record's messages normalize to. */
export interface NormalizedMessages {
  messages: NormalizedMessage[];
  /**
   * Attribute names (or `body`) whose values were read as messages: the read model shows the
   * rest of the attributes as attributes, and these only through `messages`.
   */
  readAttributes: string[];
}
