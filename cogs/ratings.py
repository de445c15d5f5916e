"""/leaderboard and /profile: the players' ratings and their rated matches (loaded with the tournaments'
commands, see ``cogs.tournaments``)."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs._components import display_name
from cogs._lang import reader_locale
from cogs.lobby import GAME_CHOICES
from engine.core.errors import EngineError, LobbyError
from engine.host.ratings import RatingChange
from lang import join, t, tn

if TYPE_CHECKING:
    from cogs._bot import Bot


class Ratings(commands.Cog):
    def __init__(self, bot: Bot) -> None:
        self.bot = bot

    @app_commands.command(name="leaderboard", description="The best rated players of a game")
    @app_commands.choices(game=GAME_CHOICES)
    @app_commands.describe(game="Which game")
    async def leaderboard(self, interaction: discord.Interaction[Any], game: str) -> None:
        # A server's leaderboard lists the people who play on it, never those of other servers.
        rows = await self.bot.ratings.leaderboard(game, limit=15, guild_id=interaction.guild_id)
        locale = await reader_locale(interaction)
        title = t(locale, self.bot.host.rules(game).title)
        if not rows:
            await interaction.response.send_message(
                t(locale, "Nobody is rated in {game} yet.", game=title), ephemeral=True
            )
            return
        lines = [t(locale, "{game}: the best players", game=f"**{title}**")]
        lines += [
            f"{r.rank}. <@{r.user_id}> {r.rating} ({record_words(locale, r.games, r.wins)})" for r in rows
        ]
        await interaction.response.send_message(
            "\n".join(lines), ephemeral=True, allowed_mentions=discord.AllowedMentions.none()
        )

    async def _played(self, change: RatingChange, locale: str) -> str:
        """One line of a player's history: when, which game and match, against whom, the place, the
        points, the rating before and after, and where the match was played."""
        sign = "+" if change.delta >= 0 else ""
        ended = int(datetime.fromisoformat(change.at).timestamp())
        title = t(locale, self.bot.host.rules(change.game).title)
        place = t(
            locale,
            "match #{number}: {place} of {seats}",
            number=change.match_id,
            place=change.place,
            seats=change.seats,
        )
        points = tn(locale, "{count} point", "{count} points", change.score)
        rating = f"{change.before} → {change.after} ({sign}{change.delta})"
        line = f"<t:{ended}:d> · {title} · {place}, {points}, {rating}"
        try:
            match = await self.bot.host.match(change.match_id)
        except EngineError:
            return line  # the match cannot be read: its rating line still stands
        name = self.bot.notifier.namer(match)
        others = [name(p.seat) for p in match.players if p.seat is not None and p.seat != change.seat]
        if others:
            line += " · " + t(locale, "against {players}", players=join(locale, others))
        if match.thread_id:
            line += " · " + t(locale, "in {thread}", thread=f"<#{match.thread_id}>")
        return line

    @app_commands.command(name="profile", description="Ratings and recent matches of a player")
    @app_commands.describe(
        user="Whose profile (default: yours)", game="One game's rating and matches only (default: every game)"
    )
    @app_commands.choices(game=GAME_CHOICES)
    async def profile(
        self, interaction: discord.Interaction[Any], user: discord.User | None = None, game: str | None = None
    ) -> None:
        who = user or interaction.user
        locale = await reader_locale(interaction)
        # On a server, only what was played there; in direct messages, your own whole record.
        if interaction.guild_id is None and who.id != interaction.user.id:
            raise LobbyError(t(locale, "in direct messages you can see your own profile only"))
        profile = await self.bot.ratings.profile(
            who.id, PROFILE_MATCHES, guild_id=interaction.guild_id, game=game
        )
        lines = [f"**{display_name(who)}**"]
        for standing in profile.games:
            if game is not None and standing.game != game:
                continue
            rating = standing.rating
            title = t(locale, self.bot.host.rules(standing.game).title)
            rank = ", " + t(locale, "rank {rank}", rank=standing.rank) if standing.rank else ""
            lines.append(
                f"{title}: {standing.display}{rank} ({record_words(locale, rating.games, rating.wins)})"
            )
        if profile.recent:
            lines.append(t(locale, "Latest matches:"))
        for change in profile.recent:
            lines.append(await self._played(change, locale))
        if len(lines) == 1:
            lines.append(t(locale, "No rated matches yet."))
        timeouts = await self.bot.host.timeouts_of(who.id, interaction.guild_id)
        if timeouts:
            lines.append(
                tn(
                    locale,
                    "{count} turn played by a computer because the time ran out",
                    "{count} turns played by a computer because the time ran out",
                    timeouts,
                )
            )
        await interaction.response.send_message("\n".join(lines), ephemeral=True)


PROFILE_MATCHES = 10


def record_words(locale: str, games: int, wins: int) -> str:
    """ "12 games, 5 wins" in ``locale``."""
    played = tn(locale, "{count} game", "{count} games", games)
    won = tn(locale, "{count} win", "{count} wins", wins)
    return f"{played}, {won}"


async def setup(bot: Bot) -> None:
    await bot.add_cog(Ratings(bot))
