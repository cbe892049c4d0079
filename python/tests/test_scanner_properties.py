"""Properties of the scanner's building blocks, checked on generated inputs (hypothesis)."""

from __future__ import annotations

import base64
import hashlib
import json

from hypothesis import given, settings
from hypothesis import strategies as st

from svc_run.media.media_types import FileDecision, FoundFile
from svc_run.media.scan.digest.base64_digest import digest_base64
from svc_run.media.scan.digest.utf8_text import utf8_prefix
from svc_run.media.scan.json.json_string_text import DecodedPositionMap
from svc_run.media.scan.json.tokenize_json import Tokenized, tokenize_json
from svc_run.media.scan.scan_attribute import scan_attribute

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**53), 2**53)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=5), children, max_size=4),
    max_leaves=20,
)


@given(json_values, st.booleans())
def test_the_tokenizer_accepts_generated_json(value: object, ascii_only: bool) -> None:
    text = json.dumps(value, ensure_ascii=ascii_only)
    result = tokenize_json(text)
    assert isinstance(result, Tokenized)
    tape = result.tape
    assert tape.starts[0] == 0
    assert tape.ends[0] == len(text)


@given(st.text(), st.sampled_from(["", ",", "]", "}", '"', ":", "x", " ", "1", "[", "{"]), st.integers(min_value=0))
def test_the_tokenizer_rejects_what_json_rejects_outside_strings(base: str, insert: str, at: int) -> None:
    text = json.dumps([base, {"k": 1}])
    where = at % (len(text) + 1)
    mutated = text[:where] + insert + text[where:]
    try:
        json.loads(mutated)
        parses = True
    except ValueError:
        parses = False
    result = tokenize_json(mutated)
    if "\\" not in mutated:
        assert isinstance(result, Tokenized) == parses
    elif parses:
        assert isinstance(result, Tokenized)


@given(st.text(), st.integers(min_value=0), st.integers(min_value=0), st.booleans())
def test_decoded_positions_map_back_into_the_literal(value: str, a: int, b: int, ascii_only: bool) -> None:
    # ensure_ascii writes characters above U+FFFF as escaped surrogate pairs (twelve characters).
    literal = json.dumps(value, ensure_ascii=ascii_only)
    start, end = sorted((a % (len(value) + 1), b % (len(value) + 1)))
    positions = DecodedPositionMap(literal, 1, len(literal) - 1)
    raw_start = positions.map(start)
    raw_end = positions.map(end)
    assert json.loads(f'"{literal[raw_start:raw_end]}"') == value[start:end]


@given(st.binary(max_size=3000), st.booleans(), st.booleans())
def test_base64_digests_are_over_the_decoded_bytes_in_either_alphabet(
    data: bytes, url_safe: bool, padded: bool
) -> None:
    text = (base64.urlsafe_b64encode(data) if url_safe else base64.b64encode(data)).decode()
    if not padded:
        text = text.rstrip("=")
    digest = digest_base64(text, 0, len(text))
    if not data:
        assert digest is None
        return
    assert digest is not None
    assert (digest.sha256, digest.size, digest.head) == (hashlib.sha256(data).hexdigest(), len(data), data[:16])


@given(st.text(), st.integers(min_value=0, max_value=64))
def test_the_utf8_prefix_is_the_longest_that_fits(text: str, limit: int) -> None:
    prefix = utf8_prefix(text, limit)
    assert text.startswith(prefix)
    encoded = len(prefix.encode("utf-8", "surrogatepass"))
    assert encoded <= limit
    if prefix != text:
        assert encoded + len(text[len(prefix)].encode("utf-8", "surrogatepass")) > limit


@settings(max_examples=300)
@given(st.text(max_size=200) | json_values.map(json.dumps))
def test_scanning_never_raises_and_keeps_text_without_files(text: str) -> None:
    offered: list[FoundFile] = []

    def decide(file: FoundFile) -> FileDecision:
        offered.append(file)
        return "upload"

    result = scan_attribute("gen_ai.input.messages", text, decide)
    if not offered:
        assert result.value == text
        assert result.changed is False
