"""Game-agnostic engine core: the rules contract, errors, RNG, options and replay."""
