"""The window shows the open prompt from its plain data (menus, the targeting cursor and its reach,
look mode, the history), the mouse points without spending turns, the sidebar shows growth and
statuses, the title offers the presets, and the victory screen says what happened."""

from __future__ import annotations

import pytest

from engine.core.model.components import Fighter, Monster
from engine.core.play.session import Session
from engine.frontend.panel import clip, wrap
from engine.frontend.settings import Settings
from engine.frontend.sound import Sounds

arcade = pytest.importorskip("arcade")

import pictures  # noqa: E402
from test_frontend import brightest, cell_pixels, screenshot, window_for  # noqa: E402, F401


def centre(window, cell):
    """The window-unit point in the middle of map cell ``cell`` (what the mouse sends)."""
    left, bottom, width, height = window.map_view.cell_rect(*cell)
    return (left + width / 2) / window.ratio, (bottom + height / 2) / window.ratio


def monster(game, kind):
    return next(e for e, m in game.world.query(Monster) if m.kind == kind)


def test_wrap_and_clip_keep_lines_inside_a_width():
    assert wrap("the quick brown fox jumps", 10) == ["the quick", "brown fox", "jumps"]
    assert wrap("abcdefghijklmnop", 6) == ["abcdef", "ghijkl", "mnop"]
    assert wrap("one two three four five six", 8, most=2) == ["one two", "three..."]
    assert clip("a long line of text", 10) == "a long ..." and clip("short", 10) == "short"


def test_the_inventory_menu_lists_letters_names_counts_and_what_is_worn(tmp_path, window_for):  # noqa: F811
    window = pictures.inventory(tmp_path, window_for)
    screenshot(window)
    said = window.prompt_view.strings()
    assert said[0] == "Inventory"
    # each item: its name and what it adds against what is worn; what it is beside them, or (in a
    # window too narrow for all of it on one line, as here) on a row of its own under them
    lines = [" ".join(line.split()) for line in said[2:said.index("", 2)]]
    assert lines == ["a scroll of burning (2)", "Burns everything within 2 cells of where you aim it.",
                     "b short sword (in use) attack +2", "A plain short sword.",
                     "c leather jerkin defense +1 (none worn)"]
    turn = window.game.turn
    # a click on a line presses its letter: the inventory describes the armour, no time passes
    row = next(i for i, line in enumerate(said) if line.startswith("c  leather jerkin"))
    left, bottom, width, height = window.prompt_view.box.rows[row]
    window.on_mouse_press((left + 5) / window.ratio, (bottom + height / 2) / window.ratio, 1, 0)
    screenshot(window)
    assert "leather jerkin: defense +1 (none worn). Slot: body." in window.prompt_view.strings()
    assert window.game.turn == turn


def test_the_targeting_cursor_tints_what_it_would_reach_and_the_mouse_aims(tmp_path, window_for):  # noqa: F811
    window = pictures.targeting(tmp_path, window_for)
    game = window.game
    image = screenshot(window)
    data = Session.of(game).prompt.describe(game)
    assert data["kind"] == "target" and len(data["affected"]) > 1
    assert window.prompt_view.cursor == tuple(data["cursor"])
    reached = [tuple(c) for c in data["affected"] if tuple(c) != tuple(data["cursor"])]
    x, y = next(c for c in reached if not game.api.entities_at(*c))
    darkest = min(cell_pixels(window, image, x, y), key=sum)
    assert darkest[0] > darkest[2] + 40  # the reach's orange under the glyph
    assert window.prompt_view.strings()[0] == "Aim the scroll of burning"
    # pointing moves the drawn cursor (and its reach) without moving the prompt's
    goblin = game.position(monster(game, "goblin"))
    window.on_mouse_motion(*centre(window, goblin), 0, 0)
    screenshot(window)
    assert window.prompt_view.cursor == goblin and Session.of(game).prompt.describe(game)["cursor"] == data["cursor"]
    assert window.prompt_view.strings()[1].startswith("a goblin")
    # Enter while pointing aims where the cursor is drawn; the blast would reach the player too,
    # so it asks, and a second Enter burns the goblin
    hp = game.world.get(monster(game, "goblin"), Fighter).hp
    window.press("enter")
    assert Session.of(game).prompt is not None and Session.of(game).prompt.describe(game)["cursor"] == list(goblin)
    screenshot(window)
    assert any(line.startswith("That would reach you too") for line in window.prompt_view.strings())
    window.press("enter")
    assert Session.of(game).prompt is None
    goblins = [e for e, m in game.world.query(Monster) if m.kind == "goblin"]
    assert not goblins or game.world.get(goblins[0], Fighter).hp < hp


def test_look_mode_says_what_is_under_its_cursor(tmp_path, window_for):  # noqa: F811
    window = pictures.look(tmp_path, window_for)
    screenshot(window)
    assert window.prompt_view.strings()[:2] == ["Look", "potion: A healing draught: 8 HP back at once; floor"]


def test_hovering_describes_a_cell_and_lights_its_monsters_row_for_free(tmp_path, window_for):  # noqa: F811
    window = pictures.hover(tmp_path, window_for)
    game = window.game
    turn = game.turn
    screenshot(window)
    rat = monster(game, "rat")
    assert "a rat (" in " ".join(window.sidebar.lines()[-4:])  # the description at the sidebar's foot
    row = window.sidebar.rows[window.sidebar.hovered]
    assert row.entity == rat and window.painter.highlighted() == game.position(rat)
    assert game.turn == turn  # pointing is never a turn
    # on the goblin's sidebar row instead: the goblin is the one outlined on the map
    goblin = monster(game, "goblin")
    index = next(i for i, r in enumerate(window.sidebar.rows) if getattr(r, "entity", None) == goblin)
    left, bottom, width, height = window.sidebar.rect
    py = bottom + height - window.sidebar.row_px // 2 - index * window.sidebar.row_px - window.sidebar.row_px / 2
    window.on_mouse_motion((left + width / 2) / window.ratio, py / window.ratio, 0, 0)
    screenshot(window)
    assert window.pointer.entity == goblin and window.painter.highlighted() == game.position(goblin)
    assert "a goblin (" in " ".join(window.sidebar.lines()[-3:])  # the footer, wrapped to the sidebar
    window.press(".")  # a key: the keyboard has the map again, the highlight goes
    screenshot(window)
    assert window.painter.highlighted() is None and "a goblin (" not in " ".join(window.sidebar.lines())


def test_ctrl_p_opens_the_history_which_scrolls(tmp_path, window_for):  # noqa: F811
    from pyglet.window import key

    window = pictures.history(tmp_path, window_for)  # open already (the scene presses ctrlp)
    game = window.game
    window.press("esc")
    assert Session.of(game).prompt is None
    window.on_key_press(key.P, key.MOD_CTRL)
    assert Session.of(game).prompt is not None and Session.of(game).prompt.kind == "history"
    screenshot(window)
    said = window.prompt_view.strings()
    assert said[0].startswith("Messages") and game.messages[-1] in said
    assert said[0].endswith(f"of {len(game.messages)})") and f"-{len(game.messages)} of" in said[0]
    window.press("up")
    screenshot(window)
    assert f"-{len(game.messages) - 1} of" in window.prompt_view.strings()[0]  # scrolled back one


def test_the_victory_screen_says_what_happened(tmp_path, window_for):  # noqa: F811
    window = pictures.victory(tmp_path, window_for)
    screenshot(window)
    said = window.end_screen.strings()
    assert window.end_screen.kind == "victory" and said[0] == "Victory!"
    assert said[1].endswith("You have won!")
    assert f"Won on depth 1 after {window.game.turn} turns, with 0 gold" in said


def test_the_title_lists_the_presets_and_a_digit_starts_one(tmp_path, window_for):  # noqa: F811
    from engine.core.play.setup import Setup, new_game

    chosen = []

    def choose(choice):
        chosen.append(choice)
        return new_game(Setup(game=choice.removeprefix("game:"), seed=1))

    window = pictures.title(tmp_path, window_for)
    window.choose = choose
    screenshot(window)
    said = window.title_screen.strings()
    assert any(s.startswith("c  Continue: undercroft, depth 4") for s in said)
    presets = [s.split()[1] for s in said if s[:1].isdigit()]
    assert set(presets) == {"undercroft", "bunyip", "rogue-sdl", "lesson28"} and presets[0] == "undercroft"
    window.press(str(presets.index("lesson28") + 1))
    assert chosen == ["game:lesson28"] and window.title_screen is None
    assert window.game.rules.name == "lesson28"


def growth_of(game):
    """The player's experience component (the default game's growth plugin's ``Experience``)."""
    return next(c for c in game.world.components(game.player) if hasattr(c, "level") and hasattr(c, "xp"))


def test_the_sidebar_shows_level_xp_and_statuses(tmp_path, window_for):  # noqa: F811
    from engine.frontend.sidebar import experience

    window = pictures.play(tmp_path, window_for)
    game = window.game
    screenshot(window)
    level, xp, need = experience(game)
    assert level == 1 and 0 < xp < need  # the rat's kill counted
    assert f"Level 1   XP {xp}/{need} [{xp}/{need}]" in window.sidebar.lines()
    mine = growth_of(game)
    mine.level, mine.xp, mine.next = 3, 25, 40
    game.api.add_status(game.player, "hasted", 7)
    window.frames.request()
    screenshot(window)
    lines = window.sidebar.lines()
    assert "Level 3   XP 25/40 [25/40]" in lines
    assert "Hasted (7)" in lines


def test_a_game_without_growth_has_no_level_to_show():
    from engine.core.play.setup import Setup, new_game
    from engine.frontend.sidebar import experience

    assert experience(new_game(Setup(game="rogue-sdl", seed=1))) == (None, 0, 0)


def test_a_level_up_and_a_win_have_their_sounds(tmp_path):
    game = pictures._default_game(tmp_path)
    played = []
    s = Sounds(Settings(), player=lambda sound, volume: played.append(sound))
    game.listeners.append(s.listener)
    s.observe(game)
    s.observe(game)
    growth_of(game).xp = growth_of(game).next - 1  # the next kill levels up: the growth plugin announces it
    game.api.kill(game.api.monsters()[0], by=game.player)
    assert "level_up" in s.observe(game)
    game.give("Amulet of the Undercroft")
    game.move_entity(game.player, *game.level.upstairs)
    Session.of(game).press("<")
    assert game.won and s.observe(game) == ["victory"]
