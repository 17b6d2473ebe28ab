"""The pre-filter's compiled scanner (``_scanc.c``), when it is built."""

def candidates(
    table: bytes, quiet_table: bytes, text: str, /
) -> tuple[bool, list[int], int, tuple[list[int], list[int]] | None]: ...
