"""The pure modules' translation hooks: whole sentences, counts and lists."""

from scorekeeper import text


def test_english_by_default():
    assert text._("%(name)s passed", name="Ann") == "Ann passed"
    assert text.ngettext("%(num)s tile", "%(num)s tiles", 1) == "1 tile"
    assert text.ngettext("%(num)s tile left for %(name)s", "%(num)s tiles left for %(name)s", 3,
                         name="Ann") == "3 tiles left for Ann"
    assert text.format_list([]) == ""
    assert text.format_list(["Ann"]) == "Ann"
    assert text.format_list(["Ann", "Bob"]) == "Ann and Bob"
    assert text.format_list(["Ann", "Bob", "Chi"]) == "Ann, Bob and Chi"
    assert text.format_list(["50", "25", "0"], style="or") == "50, 25 or 0"


def test_the_app_plugs_babel_for_the_request_language(app):
    with app.test_request_context("/", headers={"Accept-Language": "en"}):
        assert text.format_list(["Ann", "Bob", "Chi"]) == "Ann, Bob, and Chi"  # CLDR English
        assert text.ngettext("%(num)s tile", "%(num)s tiles", 2) == "2 tiles"
    # outside a request the app's hooks fall back to English
    assert text.format_list(["Ann", "Bob", "Chi"]) == "Ann, Bob and Chi"
