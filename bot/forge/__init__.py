"""Forges: where the bot posts comments and tracking issues (GitHub, or local files)."""

from bot.forge.base import Comment, Forge, Issue

__all__ = ["Comment", "Forge", "Issue"]
