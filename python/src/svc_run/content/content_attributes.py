"""The table of recognized content attributes, per convention.

One table serves two readers: the content policy removes these attributes when ``capture_content``
is false, and the media scanner reads the values of the entries marked ``scan`` for inline files
(the spec's "Automatic capture of files" list). It is the TypeScript SDK's table, name for name.

What counts as content: text or data a person or a model produced during the traced work
(messages, prompts, completions, reasoning, tool arguments and results, retrieved documents and
queries, embeddings, free-form metadata values, exception and error text). What does not:
identifiers, names, model settings, token counts and costs, finish reasons, and schemas the
developer wrote (tool definitions). Session and user identifiers stay, so the receipt's ``session``
and ``user`` fields survive capture off. Flattened conventions are matched by prefix.
"""

from __future__ import annotations

from dataclasses import dataclass

_GENAI_SPANS = "OpenTelemetry semantic conventions for generative AI: gen-ai-spans.md, registry/attributes/gen-ai.md"
_AI_SDK = 'AI SDK Core "Telemetry" (ai-sdk.dev/docs/ai-sdk-core/telemetry), v5 to v7 and @ai-sdk/otel'
_OPENINFERENCE = "OpenInference spec/semantic_conventions.md (Arize-ai/openinference)"
_OPENLLMETRY = "OpenLLMetry @traceloop/ai-semantic-conventions SemanticAttributes.ts"
_PYDANTIC_AI = "Pydantic AI OpenTelemetry instrumentation (InstrumentationSettings, version 2+), as Logfire shows it"
_LANGFUSE = "Langfuse OpenTelemetry attributes (LangfuseOtelSpanAttributes, langfuse.com/docs/opentelemetry)"


@dataclass(frozen=True)
class ContentAttributeEntry:
    """One group of content attributes of a convention."""

    convention: str
    source: str
    names: tuple[str, ...]
    """Exact attribute names."""
    prefixes: tuple[str, ...]
    """Name prefixes, each ending with ``.``; a name matches when it is longer than the prefix."""
    scan: bool
    """Whether the media scanner reads these attributes' values for inline files."""
    except_names: tuple[str, ...] = ()
    """Names under one of ``prefixes`` that are not content."""
    scan_suffixes: tuple[str, ...] | None = None
    """When set, the scanner reads only the prefixed names ending with one of these."""


CONTENT_ATTRIBUTES: tuple[ContentAttributeEntry, ...] = (
    ContentAttributeEntry(
        "GenAI semantic conventions",
        _GENAI_SPANS,
        ("gen_ai.input.messages", "gen_ai.output.messages", "gen_ai.tool.call.arguments", "gen_ai.tool.call.result"),
        (),
        scan=True,
    ),
    ContentAttributeEntry(
        "GenAI semantic conventions",
        f"{_GENAI_SPANS}; deprecated attributes in registry/attributes/gen-ai.md",
        (
            "gen_ai.system_instructions",
            "gen_ai.prompt",
            "gen_ai.completion",
            "gen_ai.retrieval.query.text",
            "gen_ai.retrieval.documents",
            "gen_ai.evaluation.explanation",
        ),
        (),
        scan=False,
    ),
    ContentAttributeEntry(
        "Vercel AI SDK",
        _AI_SDK,
        ("ai.prompt", "ai.prompt.messages", "ai.toolCall.args", "ai.toolCall.result"),
        ("ai.telemetry.metadata.",),
        scan=True,
        except_names=("ai.telemetry.metadata.sessionId", "ai.telemetry.metadata.userId"),
    ),
    ContentAttributeEntry(
        "Vercel AI SDK",
        f"{_AI_SDK}; older releases' ai.result.* and ai.toolCall.input/output",
        (
            "ai.toolCall.input",
            "ai.toolCall.output",
            "ai.response.text",
            "ai.response.object",
            "ai.response.toolCalls",
            "ai.response.reasoning",
            "ai.response.files",
            "ai.value",
            "ai.values",
            "ai.embedding",
            "ai.embeddings",
            "ai.documents",
            "ai.ranking",
            "ai.result.text",
            "ai.result.object",
            "ai.result.toolCalls",
        ),
        (),
        scan=False,
    ),
    ContentAttributeEntry(
        "OpenInference",
        _OPENINFERENCE,
        ("input.value", "output.value", "tool.parameters", "metadata"),
        ("metadata.",),
        scan=True,
    ),
    ContentAttributeEntry(
        "OpenInference",
        _OPENINFERENCE,
        (),
        ("llm.input_messages.", "llm.output_messages."),
        scan=True,
        scan_suffixes=(".message_content.image.image.url",),
    ),
    ContentAttributeEntry(
        "OpenInference",
        _OPENINFERENCE,
        (
            "llm.prompts",
            "llm.function_call",
            "llm.prompt_template.template",
            "llm.prompt_template.variables",
            "reranker.query",
        ),
        (
            "llm.choices.",
            "retrieval.documents.",
            "reranker.input_documents.",
            "reranker.output_documents.",
            "embedding.embeddings.",
        ),
        scan=False,
    ),
    ContentAttributeEntry(
        "OpenLLMetry",
        _OPENLLMETRY,
        (),
        ("gen_ai.prompt.", "gen_ai.completion."),
        scan=True,
        except_names=("gen_ai.prompt.name",),
        scan_suffixes=(".content",),
    ),
    ContentAttributeEntry(
        "OpenLLMetry", _OPENLLMETRY, ("traceloop.entity.input", "traceloop.entity.output"), (), scan=True
    ),
    ContentAttributeEntry(
        "OpenLLMetry",
        f"{_OPENLLMETRY}; trace/SemanticAttributes.ts (older names)",
        (
            "db.query.result.document",
            "db.query.result.metadata",
            "db.query.result.vector",
            "db.query.embeddings.vector",
        ),
        ("llm.prompts.", "llm.completions."),
        scan=False,
    ),
    ContentAttributeEntry("Pydantic AI", _PYDANTIC_AI, ("tool_arguments", "tool_response"), (), scan=True),
    ContentAttributeEntry(
        "Pydantic AI", _PYDANTIC_AI, ("pydantic_ai.all_messages", "all_messages_events", "final_result"), (), scan=False
    ),
    ContentAttributeEntry(
        "Langfuse",
        _LANGFUSE,
        (
            "langfuse.observation.input",
            "langfuse.observation.output",
            "langfuse.observation.metadata",
            "langfuse.trace.input",
            "langfuse.trace.output",
            "langfuse.trace.metadata",
        ),
        ("langfuse.observation.metadata.", "langfuse.trace.metadata."),
        scan=True,
    ),
    ContentAttributeEntry("Langfuse", _LANGFUSE, ("langfuse.observation.status_message",), (), scan=False),
    ContentAttributeEntry(
        "OpenTelemetry exceptions",
        "OpenTelemetry semantic conventions: exceptions (exception.*) and error.message",
        ("exception.message", "exception.stacktrace", "error.message"),
        (),
        scan=False,
    ),
)
"""The table. Order matters only for :func:`find_content_attribute`: the first matching entry wins."""

_EXACT = frozenset(name for entry in CONTENT_ATTRIBUTES for name in entry.names)
_EXCEPT = frozenset(name for entry in CONTENT_ATTRIBUTES for name in entry.except_names)
_PREFIXES = tuple(prefix for entry in CONTENT_ATTRIBUTES for prefix in entry.prefixes)
_MAX_REMEMBERED = 4096
_content_cache: dict[str, bool] = {}
_scanned_cache: dict[str, bool] = {}


def _is_content(name: str) -> bool:
    if name in _EXACT:
        return True
    if name in _EXCEPT:
        return False
    return any(len(name) > len(prefix) and name.startswith(prefix) for prefix in _PREFIXES)


def is_content_attribute(name: str) -> bool:
    """True when ``name`` is a recognized content attribute of any convention in the table."""
    known = _content_cache.get(name)
    if known is None:
        known = _is_content(name)
        if len(_content_cache) < _MAX_REMEMBERED:
            _content_cache[name] = known
    return known


def find_content_attribute(name: str) -> ContentAttributeEntry | None:
    """The table entry that makes ``name`` a content attribute, or ``None``."""
    if not is_content_attribute(name):
        return None
    for entry in CONTENT_ATTRIBUTES:
        if name in entry.names or any(len(name) > len(prefix) and name.startswith(prefix) for prefix in entry.prefixes):
            return entry
    return None


def is_scanned_attribute(name: str) -> bool:
    """True when the media scanner should read the value of attribute ``name`` for inline files."""
    known = _scanned_cache.get(name)
    if known is not None:
        return known
    entry = find_content_attribute(name)
    if entry is None or not entry.scan:
        known = False
    elif entry.scan_suffixes is None or name in entry.names:
        known = True
    else:
        known = any(name.endswith(suffix) for suffix in entry.scan_suffixes)
    if len(_scanned_cache) < _MAX_REMEMBERED:
        _scanned_cache[name] = known
    return known
