"""Game-agnostic orchestration: matches, seats, turns, computer players and the outbox."""
