from __future__ import annotations

from data.postgres.sql import numbered


def test_placeholders_are_numbered_outside_quotes_only() -> None:
    sql = "SELECT 'a?b', \"odd?\" FROM t WHERE x = ? AND y IN (?, ?) AND z = 'it''s?'"
    assert numbered(sql) == "SELECT 'a?b', \"odd?\" FROM t WHERE x = $1 AND y IN ($2, $3) AND z = 'it''s?'"
