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

/**
 * Where in the record a message or part came from: the attribute (or `body` of a log record) and
 * the JSON pointer (RFC 6901) into its parsed value. Where a string holds JSON text (a tool result
 * a format keeps as a string), the pointer continues inside that text, as the `svc.blobs` keys do
 * (`/messages/2/content` + `/content/0` = `/messages/2/content/content/0`).
 */
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
   * base64 text, a JSON array of byte numbers, or an OTLP `bytesValue` in a log body), so that
   * the read model can serve them (`inlineBytesAt`).
   */
  bytesAt?: ValueLocation;
}

/** A reference to a file held elsewhere: never fetched, never uploaded (spec "Remote references"). */
export type RemoteReference =
  /**
   * A URI as recorded: a web URL (`https:`/`http:`, shown as a link), a `gs://`/`s3://`-style
   * object-store URI (`objectStore: true`), or another scheme (an MCP resource's `file:` URI, the
   * data: URL a GenAI `uri` part holds, which is a reference and never read): only `http:` and
   * `https:` are links.
   */
  | { kind: 'uri'; uri: string; objectStore: boolean; mediaType?: string; name?: string }
  /**
   * A provider file ID: OpenAI `file-…`, Anthropic `file_…`, a GenAI `file` part's `file_id`, and
   * Gemini Files API URIs (`https://generativelanguage.googleapis.com/…/files/<id>`, which need the
   * provider's key to open: `fileId` is `files/<id>`, `uri` the URI as recorded).
   */
  | { kind: 'file_id'; fileId: string; provider?: string; uri?: string; mediaType?: string; name?: string }
  /** An external platform's media reference, e.g. Langfuse `@@@langfuseMedia:type=…|id=…|source=…@@@`. */
  | { kind: 'media_reference'; id: string; platform: string; mediaType?: string; reference: string };

/** One part of a normalized message. Every part knows where it came from. */
export type MessagePart =
  | {
      type: 'text';
      text: string;
      at: ValueLocation;
      /**
       * Set when `text` is only the start of a longer text the record uploaded (text media over
       * 64 KiB keeping its UTF-8-safe 16 KiB prefix, or a value over 1 MiB keeping its prefix):
       * the whole text is this file.
       */
      prefixOf?: MessageFile;
    }
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
  /**
   * As recorded: `system`, `user`, `assistant`, `tool`, `developer`, `model` (Gemini) etc. A value
   * the convention records without a role (an OpenInference `input.value` that is not a message
   * format, a Traceloop entity input, a Langfuse observation output, text that does not parse) has
   * the role `input` or `output`, as its direction.
   */
  role: string;
  /** The participant's name, when recorded (an OpenAI `name`, a tool message's tool name). */
  name?: string;
  parts: MessagePart[];
  /** Why the model stopped, for an output message that says (`stop`, `tool_call`, `end_turn`, …). */
  finishReason?: string;
  /** Where the message is: its attribute and pointer (for flattened attributes, the common prefix as `attribute`, pointer `""`). */
  at: ValueLocation;
  /** The convention that recorded it (`GenAI semantic conventions`, `Vercel AI SDK`, `OpenInference`, `OpenLLMetry`, `Langfuse`, `Traceloop`, `Pydantic AI`). */
  convention: string;
}

/** A file or remote reference found in a read value outside any message (shown below the messages). */
export type PlacedFile = Extract<MessagePart, { type: 'file' } | { type: 'remote' }>;

/**
 * What a record's messages normalize to.
 *
 * Per direction, one recorded source is read as the messages: several conventions often record
 * the same call on one span (OpenInference's `input.value` and its flattened
 * `llm.input_messages.*`, a Langfuse observation input beside a trace input), and showing each
 * would repeat the conversation. The source is the first of: GenAI messages, the AI SDK's, a
 * provider format in OpenInference's value, OpenInference's flattened messages, OpenLLMetry's
 * indexed ones, Langfuse's and Traceloop's values in a message format, tool call arguments and
 * results; then, when none of those is a message format, the first such value as it is. The files
 * of the other sources, and of metadata values, are in `belowMessages`.
 */
export interface NormalizedMessages {
  messages: NormalizedMessage[];
  /**
   * Files and remote references in read values outside the messages: metadata values
   * (`metadata`, `ai.telemetry.metadata.<key>`, Langfuse observation and trace metadata) and the
   * sources not read as the messages, in attribute order.
   */
  belowMessages: PlacedFile[];
  /**
   * Attribute names (or `body`) whose values were read as messages: the read model shows the
   * rest of the attributes as attributes, and these only through `messages`.
   */
  readAttributes: string[];
}
