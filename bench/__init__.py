"""What ``python bot.py bench`` measures and what the offline simulations play (``clock-sim``,
``tournament-sim``): code that drives the engine, the store and the renderers from outside, kept apart
from them so that none of them carries it."""
