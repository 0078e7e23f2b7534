"""The browser game (extra ``[web]``): a FastAPI server, a WebSocket per match, a canvas page.

Play against the computer, two on one screen or on a network, practise, or keep score of a real
table; every ruling is explained in English, French or Polish.
"""

from __future__ import annotations

from nineball.web.app import create_app

__all__ = ["create_app"]
