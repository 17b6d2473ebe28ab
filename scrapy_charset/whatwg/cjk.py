"""The CJK decoders at C speed: Python's C codec plus exact corrections.

https://encoding.spec.whatwg.org/#legacy-multi-byte-chinese-(simplified)-encodings

1. The closest C codec decodes the input. Where it fails, an error handler runs the
   standard's decoder for one step from that position (:mod:`.multibyte`) and the C codec
   resumes where the standard's decoder stopped. The decoders are stateless and agree on
   where characters start, so this is exact.
2. Where the C codec decodes a sequence to something else than the standard, its output
   character is unique to that sequence (the generator checks this), so translating the
   output fixes it (``FIXES``). A character the C codec also produces from another
   sequence (``AMBIGUOUS``) sends the input, when the sequence occurs in it, to the
   step-by-step decoder.

The index lookups the steps need are the C codec's, except for the sequences where the
index differs from it (``DIFFS``). All three tables are generated from the indexes.
"""

from __future__ import annotations

import codecs
import re
from typing import TYPE_CHECKING

from scrapy_charset.whatwg import _multibyte
from scrapy_charset.whatwg.multibyte import STEPS, step_decode

if TYPE_CHECKING:
    from typing_extensions import Buffer

__all__ = ["DECODERS", "MultiByteDecoder"]


class _Fatal(Exception):
    """Raised by the fatal error handler at the first error the standard's decoder
    reports."""


#: Bytes the standard's decoder of an encoding decodes to U+FFFD without an error
#: (gb18030's four-byte range maps U+FFFD itself).
GENUINE_FFFD = {"gb18030": b"\x84\x31\xa4\x37"}


class MultiByteDecoder:
    """A stateless CJK decoder: the C codec plus the generated corrections."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.c_codec = _multibyte.C_CODECS[name]
        self._c_decode = codecs.lookup(self.c_codec).decode  # takes any buffer, no copy
        self.diffs = _multibyte.DIFFS[name]
        self.fixes = _multibyte.FIXES[name]
        self.fix_table = str.maketrans(self.fixes) if self.fixes else {}
        # Fixes whose text holds another fix's character (a swap) must apply at once.
        self._chained = {c for c, text in self.fixes.items() if set(text) & set(self.fixes)}
        self.ambiguous = _multibyte.AMBIGUOUS[name]
        self.step = STEPS[name]
        self._pairs: dict[bytes, str | None] = {}
        self._c_encode = codecs.lookup(self.c_codec).encode
        # Code points whose C codec bytes decode otherwise, or that the C codec lacks:
        # the index's bytes (None: the standard's encoder has none either).
        self._override: dict[str, bytes | None] = {
            char: sequence or None for char, sequence in _multibyte.ENCODE[name].items()
        }
        self._override_re = (
            re.compile("([" + "".join(map(re.escape, self._override)) + "])")
            if self._override
            else None
        )
        self.error_handler = f"scrapy_charset.whatwg.{name.lower()}"
        codecs.register_error(self.error_handler, self._on_error)
        self._genuine = GENUINE_FFFD.get(name)
        self.fatal_handler = f"{self.error_handler}.fatal"
        codecs.register_error(self.fatal_handler, self._on_error_fatal)

    def encode(self, text: str, errors: str = "strict") -> tuple[bytes, int]:
        """The C codec's encoder; a character it lacks takes the index's bytes, if any.

        Where the C codec's bytes for a code point would decode to another one, the
        standard's encoder's bytes (its index pointer) are taken instead (``ENCODE``,
        generated), so text decoded by the standard's decoder encodes back.
        """
        if self._override_re is not None and self._override_re.search(text):
            return self._encode_overridden(text, errors), len(text)
        try:
            return self._c_encode(text, "strict")
        except UnicodeEncodeError:
            pass
        handler = f"{self.error_handler}.encode.{errors}"
        try:
            codecs.lookup_error(handler)
        except LookupError:
            fallback = codecs.lookup_error(errors)
            override = self._override

            def on_error(exc: UnicodeError) -> tuple[str | bytes, int]:
                if isinstance(exc, UnicodeEncodeError):
                    found = override.get(exc.object[exc.start])
                    if found is not None:
                        return found, exc.start + 1
                return fallback(exc)

            codecs.register_error(handler, on_error)
        return self._c_encode(text, handler)

    def _encode_overridden(self, text: str, errors: str) -> bytes:
        """Encode *text* around the characters whose C codec bytes decode otherwise."""
        assert self._override_re is not None
        out = []
        position = 0
        for index, part in enumerate(self._override_re.split(text)):
            position += len(part)
            if index % 2 == 0:
                out.append(self.encode(part, errors)[0] if part else b"")
                continue
            found = self._override[part]
            if found is None:  # not in the index: the caller's error handling
                exc = UnicodeEncodeError(self.c_codec, text, position - 1, position, "not in index")
                replacement = codecs.lookup_error(errors)(exc)[0]
                if isinstance(replacement, str):
                    replacement = self.encode(replacement, errors)[0]
                found = replacement
            out.append(found)
        return b"".join(out)

    def lookup(self, sequence: bytes) -> str | None:
        """The index's text for *sequence*: the generated difference, else the C codec's."""
        found = self.diffs.get(sequence)
        if found is not None:
            return found or None  # "" marks a sequence the index leaves null
        if len(sequence) == 2:  # at most 65,536 pairs: remember them
            if sequence in self._pairs:
                return self._pairs[sequence]
            found = self._pairs[sequence] = self._c_lookup(sequence)
            return found
        return self._c_lookup(sequence)

    def _c_lookup(self, sequence: bytes) -> str | None:
        try:
            return self._c_decode(sequence)[0]
        except UnicodeDecodeError:
            return None

    def _on_error(self, exc: UnicodeError) -> tuple[str, int]:
        if not isinstance(exc, UnicodeDecodeError):
            raise exc
        return self.step(exc.object, exc.start, self.lookup)

    def _on_error_fatal(self, exc: UnicodeError) -> tuple[str, int]:
        """The step of :meth:`_on_error`, stopping the decode where the standard's
        decoder reports an error (it emits U+FFFD for bytes that do not encode it)."""
        if not isinstance(exc, UnicodeDecodeError):
            raise exc
        text, end = self.step(exc.object, exc.start, self.lookup)
        if "\ufffd" in text and exc.object[exc.start : end] != self._genuine:
            raise _Fatal
        return text, end

    def decode(self, data: Buffer) -> str:
        text = self._c_decode(data, self.error_handler)[0]
        for char, sequence in self.ambiguous:
            if char in text and sequence in bytes(data):
                return step_decode(bytes(data), self.step, self.lookup)
        return self.apply_fixes(text)

    def decode_fatal(self, data: Buffer) -> str | None:
        """:meth:`decode`, or None as soon as the standard's decoder reports an error
        (error mode "fatal": https://encoding.spec.whatwg.org/#concept-encoding-process).

        An error that a sequence sent to the step-by-step decoder holds is found by the
        caller in the text (U+FFFD it does not encode); the C codec's errors stop here, at
        the first one, instead of decoding the rest."""
        try:
            text = self._c_decode(data, self.fatal_handler)[0]
        except _Fatal:
            return None
        for char, sequence in self.ambiguous:
            if char in text and sequence in bytes(data):
                return step_decode(bytes(data), self.step, self.lookup)
        return self.apply_fixes(text)

    def decode_checked(self, data: Buffer) -> tuple[str, bool]:
        """``(text, exact)``: the decoder's output, and whether the C codec alone, with
        strict errors, gives exactly that text (no error step, no correction), so that the
        C codec's name can stand for this input."""
        try:
            text = self._c_decode(data, "strict")[0]
        except UnicodeDecodeError:
            return self.decode(data), False
        for char, sequence in self.ambiguous:
            if char in text and sequence in bytes(data):
                return step_decode(bytes(data), self.step, self.lookup), False
        fixed = self.apply_fixes(text)
        return fixed, fixed is text

    def apply_fixes(self, text: str) -> str:
        """Translate the C codec's characters that the standard decodes otherwise."""
        present = [char for char in self.fixes if char in text]
        if not present:
            return text
        if self._chained.intersection(present):
            return text.translate(self.fix_table)
        for char in present:  # usually one or two: str.replace beats str.translate
            text = text.replace(char, self.fixes[char])
        return text


#: Encoding name -> decoder (GBK shares gb18030's decoder).
DECODERS: dict[str, MultiByteDecoder] = {
    name: MultiByteDecoder(name) for name in ("gb18030", "Big5", "EUC-JP", "Shift_JIS", "EUC-KR")
}
DECODERS["GBK"] = DECODERS["gb18030"]
