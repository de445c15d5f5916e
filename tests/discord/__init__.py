"""End-to-end test support: a local fake Discord (REST + gateway) that the real discord.py client talks to.

Import the public API from :mod:`tests.discord.fake` (``FakeDiscord`` and its models) and
:mod:`tests.discord.harness` (``running_bot``); the fixtures live in ``tests/discord/conftest.py``.
"""
