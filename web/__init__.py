"""The web table: a front end for browsers beside the Discord one. It turns requests into host calls and
host results into pages (``web.app``), and signs the links to a player's private page (``web.links``)."""
