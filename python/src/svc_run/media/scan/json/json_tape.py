"""The positioned JSON tree the scanner reads, held in flat lists rather than one object per node.

A node is an int; nodes are in reading order (the root is 0, each container before its children),
and every node knows where it sits in the text, so the scanner can replace exactly those characters
and keep the rest byte for byte. String contents are not copied.

The children of a container are ``node + 1``, then each one's ``nexts[child]``, while below the
container's own ``nexts[node]``. Object members carry the position of their key.
"""

from __future__ import annotations

OBJECT = 0
ARRAY = 1
STRING = 2
NUMBER = 3
LITERAL = 4

ROOT = 0
"""The root node of every tape."""

_ESCAPED = 8
_KIND_MASK = 7


class JsonTape:
    """The nodes of one JSON text."""

    __slots__ = ("ends", "key_ends", "key_starts", "kinds", "nexts", "starts", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        self.kinds: list[int] = []
        """Per node: kind, with the escaped flag for strings holding a backslash."""
        self.starts: list[int] = []
        """Per node: index of its first character."""
        self.ends: list[int] = []
        """Per node: index just after its last character."""
        self.nexts: list[int] = []
        """Per node: the first node after its subtree."""
        self.key_starts: list[int] = []
        """Per object member: index of its key's opening quote; -1 for other nodes."""
        self.key_ends: list[int] = []
        """Per object member: index just after its key's closing quote."""

    @property
    def size(self) -> int:
        """Number of nodes."""
        return len(self.kinds)

    def kind(self, node: int) -> int:
        """``OBJECT``, ``ARRAY``, ``STRING``, ``NUMBER`` or ``LITERAL``."""
        return self.kinds[node] & _KIND_MASK

    def escaped(self, node: int) -> bool:
        """Strings: the contents hold at least one backslash escape."""
        return (self.kinds[node] & _ESCAPED) != 0

    def child_count(self, node: int) -> int:
        """Number of items of an array or members of an object."""
        end = self.nexts[node]
        count = 0
        child = node + 1
        nexts = self.nexts
        while child < end:
            count += 1
            child = nexts[child]
        return count

    def children(self, node: int) -> list[int]:
        """The items of an array or the members of an object, in order."""
        end = self.nexts[node]
        found: list[int] = []
        child = node + 1
        nexts = self.nexts
        while child < end:
            found.append(child)
            child = nexts[child]
        return found

    def add(self, kind: int, start: int) -> int:
        """Appends a node starting at ``start`` (its end, next and key are set as it is read)."""
        node = len(self.kinds)
        self.kinds.append(kind)
        self.starts.append(start)
        self.ends.append(0)
        self.nexts.append(0)
        self.key_starts.append(-1)
        self.key_ends.append(-1)
        return node

    def mark_escaped(self, node: int) -> None:
        """Marks string ``node`` as holding escapes."""
        self.kinds[node] |= _ESCAPED
