"""The page's words and what they are for, in a real browser (issue 17): the level select with
each computer player's translated name, description and rating, the referee's ruling announced
to screen readers, and ball numbers readable on every ball. Screenshots go to ``artifacts/``.
"""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pytest
from PIL import Image
from playwright.sync_api import Page, expect

from nineball.players.registry import PLAYERS, RATINGS
from tests.web.test_browser import _act, _start

pytestmark = pytest.mark.browser


def test_the_level_select_explains_each_level(page: Page, server_url: str, artifacts: Path) -> None:
    page.set_viewport_size({"width": 1400, "height": 900})
    page.goto(server_url)
    expect(page.locator("#lobby")).to_be_visible()
    expect(page.locator("#level option")).to_have_count(len(PLAYERS))
    assert page.eval_on_selector("#level", "(s) => s.value") == "club"
    club = RATINGS["club"]  # the shipped rating (ratings.json), which a new ladder changes
    words = {
        "en": (f"Club (rating {club}): plays position and safeties", "Computer"),
        "fr": (f"Club (cote {club}) : joue la position", "Ordinateur"),
        "pl": (f"Klubowy (ranking {club}): gra na pozycję i odstawne", "Komputer"),
    }
    for lang, (label_of_club, computer) in words.items():
        page.select_option("#lang", lang)
        labels = page.eval_on_selector_all("#level option", "(os) => os.map((o) => o.text)")
        assert labels[list(PLAYERS).index("club")].startswith(label_of_club)
        for name, label in zip(PLAYERS, labels, strict=True):
            assert str(RATINGS[name]) in label
        expect(page.locator("#name1")).to_have_attribute("placeholder", computer)
    page.select_option("#lang", "fr")
    labels = page.eval_on_selector_all("#level option", "(os) => os.map((o) => o.text)")
    assert (
        labels[0] == "Boule fantôme (cote 300) : vise la poche la plus facile, sans jeu de position"
    )
    page.screenshot(path=artifacts / "20-lobby-levels-french.png")


def test_the_ruling_is_announced_to_screen_readers(
    page: Page, server_url: str, artifacts: Path
) -> None:
    page.set_viewport_size({"width": 1400, "height": 900})
    _start(page, server_url, "local", 3, 4)
    live = page.locator("#ruling-live")
    expect(live).to_have_attribute("aria-live", "polite")
    expect(live).to_be_empty()
    _act(page, "#btn-shoot")  # the break
    ruling = page.evaluate("window.nb.ruling")
    expect(live).to_contain_text(ruling["explanation"]["en"])
    page.select_option("#lang", "fr")
    expect(live).to_contain_text(ruling["explanation"]["fr"])
    page.screenshot(path=artifacts / "21-ruling-french.png")
    page.select_option("#lang", "pl")
    expect(live).to_contain_text(ruling["explanation"]["pl"])
    page.screenshot(path=artifacts / "22-ruling-polish.png")
    # Drawn again without a new ruling, the region keeps its words (nothing is announced twice).
    page.evaluate(
        """() => { window.nb.liveWrites = 0;
            new MutationObserver(() => window.nb.liveWrites++)
                .observe(document.getElementById('ruling-live'), { childList: true });
            document.getElementById('lang').dispatchEvent(new Event('change')); }"""
    )
    page.wait_for_timeout(200)
    assert page.evaluate("window.nb.liveWrites") == 0


def _luma(rgb: np.ndarray) -> np.ndarray:
    return rgb @ np.array([0.2126, 0.7152, 0.0722])


def test_every_ball_number_is_drawn_on_a_contrasting_disc(
    page: Page, server_url: str, artifacts: Path
) -> None:
    page.set_viewport_size({"width": 1400, "height": 900})
    _start(page, server_url, "local", 3, 4)
    page.select_option("#aid", "off")  # no aiming line across the rack
    page.wait_for_timeout(100)
    page.screenshot(path=artifacts / "23-ball-numbers.png")
    shot = np.asarray(Image.open(io.BytesIO(page.screenshot())).convert("RGB"), dtype=float)
    layout = page.evaluate("window.nb.layout")
    radius = page.evaluate("window.nb.table.radius")
    for ball in range(1, 10):
        x, y = layout[str(ball)]
        cx, cy = page.evaluate("([x, y]) => window.nbToClient(x, y)", [x, y])
        ex, ey = page.evaluate("([x, y]) => window.nbToClient(x, y)", [x + radius, y])
        r = float(np.hypot(ex - cx, ey - cy))
        assert r > 4, r
        # Inside the disc: white background and black digit, the most contrast there is.
        box = shot[
            round(cy - 0.4 * r) : round(cy + 0.4 * r), round(cx - 0.4 * r) : round(cx + 0.4 * r)
        ]
        luma = _luma(box.reshape(-1, 3))
        assert (luma > 235).mean() > 0.2, ball
        assert (luma < 60).mean() > 0.05, ball
        # The disc is ringed in black, so it stands out on the yellow 1 and 9 as on the black 8.
        angles = np.linspace(0, 2 * np.pi, 48, endpoint=False)
        ring = [
            _luma(shot[round(cy + 0.6 * r * np.sin(a)), round(cx + 0.6 * r * np.cos(a))])
            for a in angles
        ]
        assert np.mean(np.array(ring) < 120) > 0.5, ball
