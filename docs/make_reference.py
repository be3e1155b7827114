"""Write docs/reference.md, the plugin reference, from the code's docstrings.

    python docs/make_reference.py            # rewrite docs/reference.md
    python docs/make_reference.py --check    # exit 1 (and say so) when the committed file is stale

Sources: ``engine.hookspecs`` (what a plugin is, the rules at load, every hook with its exact
signature, when it is called and an example, and the ``register`` callback each register hook
passes, read from ``engine.core.loading.registrars`` itself); ``engine.testing`` (every contract, as the test kit checks
it); and the game API: the modules, classes and members named in :data:`GAME_API`.
tests/test_reference.py fails when the committed reference and the code disagree.
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib
import inspect
import pkgutil
import re
import sys
import textwrap
import typing
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

OUT = Path(__file__).resolve().parent / "reference.md"

# The game API: what behaviours, effects, systems and event hooks receive as ``game``. Dotted names
# of modules (their public names), classes (their public members) or single members; each is
# rendered from its docstrings, in this order. (The lead's game API replaces today's list, which
# names the members of the Game that plugins may rely on until then.)
GAME_API: list[str] = ["engine.core.turn.api.GameAPI"]
GAME_API_INTRO = """\
The one face every plugin callable receives as `game`: an `engine.GameAPI`. A behaviour, an effect,
an action's `perform(game, entity)`, a system's `run(game)`, every method of a `Ruleset`, a status
kind's `on_start`, `on_tick` and `on_end`, every event and action hook, and a bot get the same
object; nothing else of the run is given to a plugin (the ECS world is read with `query` and
`component`, changed with `add_component` and `remove_component`). The actions a behaviour returns
are `engine.Move(dx, dy)`, `engine.Attack(target)` and `engine.Wait()`, or a plugin's own."""

# The contracts, in the order the reference gives them: (title, module of the kit).
CONTRACTS = [
    ("FOV algorithms", "engine.testing.fov"),
    ("Generators", "engine.testing.generators"),
    ("Pathfinders", "engine.testing.path"),
    ("Behaviours, effects and presets", "engine.testing.play"),
    ("Tilesets", "engine.testing.tiles"),
    ("Whole plugins", "engine.testing.plugins"),
    ("Games in tests: a map, keys, the palette", "engine.testing.scenes"),
]


# --- docstrings to Markdown ------------------------------------------------------------------------


def inline(text: str) -> str:
    """reST inline markup as Markdown: ``code`` and :role:`name` become `code` and `name`."""
    text = re.sub(r"``(.+?)``", r"`\1`", text)
    return re.sub(r":[a-z]+:`~?([^`]+)`", r"`\1`", text)


def markdown(doc: str | None) -> str:
    """A docstring as Markdown; a paragraph ending in ``::`` introduces a Python code block."""
    lines = inspect.cleandoc(doc or "").splitlines()
    out: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.rstrip().endswith("::"):
            head = line.rstrip()[:-2].rstrip()
            if head:
                out.append(inline(head) + ":")
            i += 1
            block = []
            while i < len(lines) and (not lines[i].strip() or lines[i].startswith(" ")):
                block.append(lines[i])
                i += 1
            out += ["", "```python", textwrap.dedent("\n".join(block)).strip("\n"), "```", ""]
            continue
        out.append(inline(line))
        i += 1
    return re.sub(r"\n{3,}", "\n\n", "\n".join(out)).strip() + "\n"


class _Written:
    """An annotation shown as written: ``inspect`` quotes a string annotation, the reference does not."""

    def __init__(self, text: str) -> None:
        self.text = text

    def __repr__(self) -> str:
        return self.text


def _annotation(hint: Any) -> Any:
    if hint is inspect.Parameter.empty:
        return hint
    return _Written(hint if isinstance(hint, str) else _type_name(hint))


def signature(fn: Callable[..., Any], types: bool = True) -> str:
    """``fn``'s parameters and defaults as written, with their type hints as written (``types``)
    or without them."""
    sig = inspect.signature(fn)
    shown = [p.replace(annotation=_annotation(p.annotation) if types else inspect.Parameter.empty)
             for p in sig.parameters.values()]
    back = _annotation(sig.return_annotation) if types else inspect.Signature.empty
    return str(sig.replace(parameters=shown, return_annotation=back))


# --- sections --------------------------------------------------------------------------------------


def _register_call(hook: str) -> str | None:
    """The ``register`` callback a register hook passes, read from the loader's registrar."""
    from engine.core.loading import registrars

    kind = registrars.REGISTER_HOOKS.get(hook)
    if kind is None:
        return None
    call = f"`register{signature(registrars.make_registrar(kind, {}))}`"
    if kind in registrars.REGISTER_TYPES:
        return f"{call}, where `obj` is an instance of `{registrars.REGISTER_TYPES[kind].__name__}` (or a subclass)"
    if kind == "components":
        return f"{call}, where `cls` is a dataclass"
    return call


def hooks() -> list[str]:
    import engine.hookspecs as hookspecs

    out = ["## Hooks", ""]
    declared = {name for info in pkgutil.iter_modules(hookspecs.__path__)
                for name, fn in vars(importlib.import_module(f"{hookspecs.__name__}.{info.name}")).items()
                if inspect.isfunction(fn) and hasattr(fn, "undercroft_spec")}
    if declared != set(hookspecs.__all__):  # a hook pluggy would not know, or one the reference would miss
        raise ValueError(f"engine.hookspecs.__all__ and the hooks its modules declare differ: "
                         f"{sorted(declared ^ set(hookspecs.__all__))}")
    specs = [(name, getattr(hookspecs, name)) for name in hookspecs.__all__]  # the package's order
    for name, fn in specs:
        out += [f"### `{name}{signature(fn)}`", ""]
        call = _register_call(name)
        if call:
            out += [f"The plugin calls {call}.", ""]
        out += [markdown(fn.__doc__)]
    return out


def _public_functions(module: Any) -> list[tuple[str, Callable]]:
    import engine.testing as kit

    found = [(name, getattr(kit, name)) for name in kit.__all__
             if inspect.isfunction(getattr(kit, name)) and getattr(kit, name).__module__ == module.__name__]
    return sorted(found, key=lambda item: inspect.getsourcelines(item[1])[1])  # as the module reads


def contracts() -> list[str]:
    import engine.testing as kit

    out = ["## The test kit: `engine.testing`", "", markdown(kit.__doc__),
           "## Contracts, as the test kit checks them", "",
           "Each contract below is a function of `engine.testing`; its text is what it checks. Our own tests call "
           "the same functions on the built-in plugins.", ""]
    for title, module_name in CONTRACTS:
        module = importlib.import_module(module_name)
        out += [f"### {title}", "", markdown(module.__doc__)]
        for name, fn in _public_functions(module):
            out += [f"#### `{name}{signature(fn)}`", "", markdown(fn.__doc__)]
    return out


def _resolve(dotted: str) -> tuple[str, Any]:
    """The object a dotted name names: a module, or an attribute path inside one."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj: Any = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for attr in parts[cut:]:
            obj = inspect.getattr_static(obj, attr) if inspect.isclass(obj) else getattr(obj, attr)
        return parts[-1], obj
    raise ImportError(f"GAME_API: cannot import {dotted!r}")


UNDOCUMENTED = "_No docstring yet._\n"


def _member(name: str, obj: Any) -> list[str]:
    if isinstance(obj, property):
        doc = obj.fget.__doc__ if obj.fget else None
        returns = inspect.signature(obj.fget).return_annotation if inspect.isfunction(obj.fget) else None
        typed = f": {returns}" if isinstance(returns, str) else ""  # as written (the modules' annotations are text)
        return [f"#### `{name}{typed}`", "", markdown(doc) if doc else UNDOCUMENTED]
    fn = obj.__func__ if isinstance(obj, staticmethod | classmethod) else obj
    if callable(fn):
        sig = re.sub(r"^\(self(, )?", "(", signature(fn))
        return [f"#### `{name}{sig}`", "", markdown(fn.__doc__) if fn.__doc__ else UNDOCUMENTED]
    return [f"#### `{name}`", "", UNDOCUMENTED]


def render_api(names: Iterable[str]) -> list[str]:
    """The game API's entries: a module's public names, a class's public members, or one member."""
    out: list[str] = []
    for dotted in names:
        name, obj = _resolve(dotted)
        if inspect.ismodule(obj):
            out += [f"### `{dotted}`", "", markdown(obj.__doc__)]
            public = getattr(obj, "__all__", [n for n in vars(obj) if not n.startswith("_")])
            for member in public:
                value = getattr(obj, member)
                if getattr(value, "__module__", obj.__name__) == obj.__name__:
                    out += _member(member, value)
        elif inspect.isclass(obj):
            out += [f"### `{dotted}`", "", markdown(obj.__doc__)]
            # the parts the class owns and gives the members of (engine.core.turn.api.PARTS), each after
            # the class's own members: a part's docstring's first line is its heading, the rest its intro
            parts = [part for _, part in getattr(inspect.getmodule(obj), "PARTS", ())]
            given = {member for part in parts for member in vars(part)}
            shown: set[str] = set()
            for cls in [obj, *parts]:
                if cls is not obj:
                    head, _, rest = inspect.cleandoc(cls.__doc__ or cls.__name__).partition("\n")
                    out += [f"### {inline(head.rstrip('.'))}", "", markdown(rest)]
                for member, value in vars(cls).items():
                    if not member.startswith("_") and member not in shown and (cls is not obj or member not in given):
                        shown.add(member)
                        out += _member(member, value)
        else:
            out += _member(name, obj)
    return out


def game_api(names: Iterable[str] = GAME_API) -> list[str]:
    return ["## The game API", "",
            "<!-- The game API section: generated from the docstrings of the names in GAME_API "
            "(docs/make_reference.py). Change the list there, not this text. -->", "",
            GAME_API_INTRO, "", *render_api(names), "<!-- end of the game API section -->", ""]


def _type_name(hint: Any) -> str:
    """A field's type as written (``int | None``, ``tuple[str, ...]``), without the schema."""
    base = typing.get_args(hint)[0] if typing.get_origin(hint) is typing.Annotated else hint
    text = base.__name__ if isinstance(base, type) else str(base)
    return re.sub(r"\b(typing|collections\.abc|engine\.[a-z_.]+)\.", "", text)


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def game_rules() -> list[str]:
    """Every field of ``engine.GameRules``, from the dataclass: its type, default, what a value must
    be (the schema's words) and what it means (``engine.core.kinds.rules.FIELDS``)."""
    from engine.core.kinds import rules

    hints = typing.get_type_hints(rules.GameRules, include_extras=True)
    missing = [f.name for f in dataclasses.fields(rules.GameRules) if f.name not in rules.FIELDS]
    if missing:
        raise ValueError(f"engine.core.kinds.rules.FIELDS: say what GameRules field(s) {', '.join(missing)} mean")
    out = ["## Presets: the fields of `engine.GameRules`", "",
           "<!-- generated from the dataclass and engine.core.kinds.rules.FIELDS (docs/make_reference.py) -->", "",
           markdown(rules.GameRules.__doc__), "",
           "A preset in TOML (`content/games/*.toml`) has the same keys. A default of `required` means the field "
           "must be given.", ""]
    return [*out, *_field_table(rules.GameRules, rules.FIELDS, hints), ""]


def _field_table(cls: type, meanings: dict[str, str], hints: dict[str, Any]) -> list[str]:
    """A dataclass's fields as a table: type, default, what a value must be, what it means."""
    out = ["| field | type | default | a value must be | meaning |", "|---|---|---|---|---|"]
    for f in dataclasses.fields(cls):
        hint = hints[f.name]
        spec = hint.__metadata__[0] if typing.get_origin(hint) is typing.Annotated else None
        if f.default is not dataclasses.MISSING:
            default = repr(f.default)
        elif f.default_factory is not dataclasses.MISSING:
            default = repr(f.default_factory())
        else:
            default = "required"
        expected = getattr(spec, "expected", "") or ""
        out.append(f"| `{f.name}` | `{_cell(_type_name(hint))}` | `{_cell(default)}` | {_cell(str(expected))} | "
                   f"{_cell(meanings[f.name])} |")
    return out


def kinds() -> list[str]:
    """Every field of ``engine.MonsterKind`` and ``engine.ItemKind`` (as :func:`game_rules`), then
    the behaviours and effects the built-in plugins register, with the params each reads."""
    from engine.core.kinds import content
    from engine.core.loading.loader import load_registry

    out = ["## Kinds: the fields of `engine.MonsterKind` and `engine.ItemKind`", "",
           "<!-- generated from the dataclasses and engine.core.kinds.content's MONSTER_FIELDS and ITEM_FIELDS "
           "(docs/make_reference.py) -->", "",
           "A content file's row (`content/monsters.toml`, `content/items.toml`) has the same keys, its table's name "
           "being the `name`.", ""]
    for cls, meanings in ((content.MonsterKind, content.MONSTER_FIELDS), (content.ItemKind, content.ITEM_FIELDS)):
        missing = [f.name for f in dataclasses.fields(cls) if f.name not in meanings]
        if missing:
            raise ValueError(f"engine.core.kinds.content: say what {cls.__name__} field(s) {', '.join(missing)} mean")
        hints = typing.get_type_hints(cls, include_extras=True)
        out += [f"### `engine.{cls.__name__}`", "", markdown(cls.__doc__), "", *_field_table(cls, meanings, hints), ""]
    registry = load_registry(entry_points=False)
    for table, title, intro in (
            ("behaviours", "Built-in behaviours", "What a monster kind's `behaviour` may name with the built-in "
             "plugins loaded; the params each reads are the kind's `params` (`params = { flee = 30 }` in a content "
             "file). A plugin's own behaviour calls one by name: `game.behaviour(\"hunt\")(game, me)`."),
            ("effects", "Built-in effects", "What an item kind's `effect` may name with the built-in plugins loaded; "
             "the params each reads are the kind's `params` (`params = { amount = 12 }` in a content file).")):
        out += [f"### {title}", "", intro, ""]
        for name, fn in sorted(getattr(registry, table).items()):
            out += [f"#### `{name}` (plugin `{registry.owners[(table, name)]}`)", "", markdown(fn.__doc__), ""]
    return out


# The kinds a plugin builds in code only (no content file has them): each class's docstring says
# what its fields mean; the table gives their names, types and defaults.
CODE_KINDS = ["engine.core.kinds.statuskinds.StatusKind", "engine.core.kinds.terrainkinds.TerrainKind",
              "engine.core.kinds.verbs.Verb", "engine.core.kinds.commands.KeyCommand"]


def code_kinds() -> list[str]:
    """The fields of the kinds registered in code (:data:`CODE_KINDS`): the class's docstring, and a
    table of every field's type and default; then every method of ``engine.Ruleset``."""
    out = ["## Kinds made in code: statuses, terrain, verbs, key commands", "",
           "<!-- generated from the dataclasses (docs/make_reference.py: CODE_KINDS) -->", ""]
    for dotted in CODE_KINDS:
        _, cls = _resolve(dotted)
        hints = typing.get_type_hints(cls)
        out += [f"### `engine.{cls.__name__}`", "", markdown(inspect.getmodule(cls).__doc__), "",
                markdown(cls.__doc__), "", "| field | type | default |", "|---|---|---|"]
        for f in dataclasses.fields(cls):
            default = (repr(f.default) if f.default is not dataclasses.MISSING else
                       repr(f.default_factory()) if f.default_factory is not dataclasses.MISSING else "required")
            out.append(f"| `{f.name}` | `{_cell(_type_name(hints[f.name]))}` | `{_cell(default)}` |")
        out.append("")
    from engine.core.turn.ruleset import Ruleset

    out += ["## `engine.Ruleset`: every method a ruleset may override", "",
            "<!-- generated from engine.core.turn.ruleset.Ruleset (docs/make_reference.py) -->", "",
            markdown(Ruleset.__doc__), ""]
    for member, value in vars(Ruleset).items():
        if not member.startswith("_") and callable(value):
            out += _member(member, value)
    return out


def messages() -> list[str]:
    """Every message key a preset's ``messages`` may set: its default and the fields it may use."""
    from engine.core.kinds import messages as m
    from engine.core.kinds import saying

    out = ["## Message keys", "",
           "<!-- generated from engine.core.kinds.messages (docs/make_reference.py) -->", "",
           "What a preset's `messages` table (`[messages]` in TOML) may set, over the defaults below. A template "
           "is Python `str.format` text and may use only its key's fields (a template naming another is refused "
           "when the preset is read, in one line); a key not listed here is a plugin's own "
           "(`game.rules.message(\"frost.thaw\")`) and may use any field. The HUD's keys (`status`, `keys`, "
           "`keys_dead`, `death_title`, `death_hint`) are what the window's status line, key line and death "
           "screen say; a preset that sets `status` keeps the classic look (its own status line, no sidebar). "
           "Their fields, the HUD fields, are " + ", ".join(f"`{{{f}}}`" for f in m.HUD_FIELDS) + ".", "",
           "A message's kind says what sort of event it is, and the window colours the log by it: "
           + "; ".join(f"`{k}`, {what}" if k else f"none, {what}" for k, what in saying.KINDS.items())
           + ". A template says its key's kind; a plugin's own line says its own "
           "(`game.log(text, kind=\"kill\")`).", "",
           "| key | default | fields | kind |", "|---|---|---|---|"]
    defaults = {**m.DEFAULT_MESSAGES, **m.HUD_MESSAGES, **{k: f"(the `{v}` line)" for k, v in m.HUD_FALLBACK.items()}}
    for key, text in defaults.items():
        hud = key in m.HUD_MESSAGES or key in m.HUD_FALLBACK
        fields = "the HUD fields" if hud else ", ".join(f"`{{{f}}}`" for f in sorted(m.MESSAGE_FIELDS.get(key, ())))
        fields = fields or "none"
        shown = text if key in m.HUD_FALLBACK else f"`{text}`" if text else "(nothing said)"
        kind = "" if hud else saying.KEY_KINDS.get(key, "")
        out.append(f"| `{key}` | {_cell(shown)} | {fields} | {f'`{kind}`' if kind else ''} |")
    return [*out, ""]


def glyphs() -> list[str]:
    """Every glyph the built-in plugins draw and ``--map`` reads, and who uses it: a plugin's new
    kind should take a glyph not in this table (a shared one is warned at load)."""
    from engine.core.loading.loader import load_registry
    from engine.core.plugin import checks as pluginchecks
    from engine.kit.mapgen import TILE_CHARS

    registry = load_registry(entry_points=False)
    rows = [(ch, f"the {name} (map tile)", "the engine") for ch, name in
            zip(TILE_CHARS.values(), ("wall", "floor", "stairs down", "stairs up"), strict=True)]
    rows[-1] = (rows[-1][0], "the stairs up (map tile); in a `--map` file, the player's start on them", rows[-1][2])
    rows.append((pluginchecks.PLAYER_GLYPH, "the player's start in a `--map` file", "the engine"))
    legend = pluginchecks.map_legend(registry)
    for table, what in (("items", "item"), ("monsters", "monster")):
        for kind in getattr(registry, table).values():
            read = "" if legend.get(kind.glyph) == kind.name else " (a map names it in a legend line)"
            rows.append((kind.glyph, f"{what} `{kind.name}`{read}", f"`{registry.owners[(table, kind.name)]}`"))
    for rules in registry.games.values():
        for kind in rules.monster_kinds.values():
            rows.append((kind.glyph, f"monster `{kind.name}` of game `{rules.name}` (its own kind)",
                         f"`{registry.owners[('games', rules.name)]}`"))
    out = ["## Glyphs in use", "",
           "<!-- generated from the built-in plugins' registrations (docs/make_reference.py) -->", "",
           "What each glyph means when the built-in plugins are loaded (`--map` files and test maps read "
           "them so: `engine.testing.game_from_map`). Items wear the glyph of their class (`!` potions, `?` "
           "scrolls, `)` weapons, `[` armour; `/` wands and `=` rings for a plugin's), told apart by colour and "
           "name: a map reads a class's glyph as its first item registered, and gives any other kind a character "
           "of its own in legend lines under the picture, after a blank line (`1: potion of haste`). Give a new "
           "monster a glyph of its own: a glyph a monster shares with another kind is warned at load, and `--map` "
           "reads it as the monster registered last. A `--map` file also reads "
           "the glyphs a preset draws its terrain with (its `tiles`) as that terrain, unless a kind has the glyph.", "",
           "| glyph | what | plugin |", "|---|---|---|"]
    out += [f"| `{_cell(ch)}` | {what} | {who} |" for ch, what, who in
            sorted(rows, key=lambda r: (r[0], "legend line" in r[1], r[1]))]  # what --map reads first
    return [*out, ""]


def render(api: Iterable[str] = GAME_API) -> str:
    """The whole reference, as Markdown."""
    import engine.hookspecs as hookspecs

    parts = ["# Undercroft plugin reference", "",
             "Generated by `python docs/make_reference.py` from the docstrings of `engine.hookspecs`, "
             "`engine.testing` and the game API; a test fails when this file and the code disagree, so edit "
             "the docstrings, not this file.", "",
             "## Plugins", "", markdown(hookspecs.__doc__), *hooks(), *game_api(api), *game_rules(), *kinds(),
             *code_kinds(), *messages(), *glyphs(), *contracts()]
    return re.sub(r"\n{3,}", "\n\n", "\n".join(parts)).rstrip() + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only say whether docs/reference.md is up to date")
    args = parser.parse_args(argv)
    text = render()
    if args.check:
        if OUT.read_text() != text:
            print(f"{OUT} is stale: run python docs/make_reference.py", file=sys.stderr)
            return 1
        return 0
    OUT.write_text(text)
    print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
