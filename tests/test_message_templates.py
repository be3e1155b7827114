"""Message templates are filled once, with sample values, when a preset is read: a format spec
its values cannot take, or a width that would fill the memory, is refused in one line before the
first turn instead of crashing when the message is first said."""

from __future__ import annotations

import shutil

import pytest

from engine.cli.main import main
from engine.core.kinds.messages import Messages
from engine.core.kinds.schema import SchemaError
from engine.kit import limits
from engine.plugins.rules.content import content_dir

REFUSED = {
    "{depth:s}": "Unknown format code 's'",
    "{depth:>9999999999999}": f"widths of at most {limits.MAX_MESSAGE_CHARS}",
    f"{{depth:>{limits.MAX_MESSAGE_CHARS + 1}}}": f"widths of at most {limits.MAX_MESSAGE_CHARS}",
    "{depth:.9999}": f"widths of at most {limits.MAX_MESSAGE_CHARS}",
    "{depth:{depth}}": "have no {fields}",
    "{depth:c}": "not in range",  # a depth is never negative, but a number field may be
    "{depth!z}": "Unknown conversion",
}


@pytest.mark.parametrize("template", sorted(REFUSED))
def test_a_template_its_values_cannot_fill_is_refused(template):
    with pytest.raises(SchemaError, match="messages.descend: expected a message") as caught:
        Messages().check({"descend": template}, "undercroft.toml: messages")
    assert REFUSED[template] in str(caught.value) and "\n" not in str(caught.value)


@pytest.mark.parametrize("template", ["{depth:>5}", "{depth:03d}", "{depth:,}", "{depth!r}", "Down to {depth:<3}."])
def test_a_template_its_values_can_fill_is_kept(template):
    assert Messages().check({"descend": template}, "m") == {"descend": template}


def test_the_huds_text_and_number_fields_are_told_apart():
    assert Messages().check({"status": "{game:>10} {hp:.1f}"}, "m")
    with pytest.raises(SchemaError, match="'d' for object of type 'str'"):
        Messages().check({"status": "{game:d}"}, "m")


def test_a_plugins_own_message_is_bounded_but_not_filled():
    assert Messages().check({"frost_bite": "{anything:s} {n:d}"}, "m")  # its values are the plugin's
    with pytest.raises(SchemaError, match="widths of at most"):
        Messages().check({"frost_bite": "{n:>999999999}"}, "m")


@pytest.mark.parametrize("template", ["{depth:s}", "{depth:>9999999999999}"])
def test_a_preset_with_such_a_template_is_refused_before_play(tmp_path, monkeypatch, capsys, template):
    content = tmp_path / "content"
    shutil.copytree(content_dir(), content)
    path = content / "games" / "undercroft.toml"
    text = path.read_text()
    assert "[messages]\n" in text
    path.write_text(text.replace("[messages]\n", f'[messages]\ndescend = "{template}"\n', 1))
    monkeypatch.setenv("UNDERCROFT_CONTENT", str(content))
    assert main(["--headless", "--new", "--seed", "1", "--keys", "l"]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and "messages.descend: expected a message" in err, err


@pytest.mark.parametrize(("template", "name", "said"), [
    ("a {monster} (3/3 HP)", "orc", "an orc (3/3 HP)"),  # look said "a orc"
    ("A {target} falls.", "ogre", "An ogre falls."),
    ("an {monster}", "rat", "a rat"),
    ("The {attacker} hits you.", "eel", "The eel hits you."),  # the definite article stays
    ("a {monster}", "Vorgath the Warden", "Vorgath the Warden"),  # a proper name takes none
])
def test_the_article_before_a_creatures_name_fits_the_name(template, name, said):
    from engine.core.kinds.messages import proper_names

    field = template.split("{")[1].split("}")[0]
    assert proper_names(template, {field: name}).format(**{field: name}) == said
