"""The base of every immutable value the rules hand around."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class Frozen(BaseModel):
    """Base for immutable value models (states, actions, views, events)."""

    model_config = ConfigDict(frozen=True, extra="forbid")
