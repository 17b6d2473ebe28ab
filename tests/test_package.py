"""``import scrapy_charset`` gives every documented name and module, loaded on first use."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.spec import REPO

MODULES = [
    # (attribute, the module it is, a name it holds)
    pytest.param("signals", "scrapy_charset.signals", "charset_alert", id="signals"),
    pytest.param("alerts", "scrapy_charset.items.alerts", "Alert", id="alerts"),
    pytest.param("monitors", "scrapy_charset.items.monitors", "CharsetMonitorSuite", id="monitors"),
]


@pytest.mark.parametrize(("attribute", "module", "name"), MODULES)
def test_documented_modules_are_attributes_loaded_on_first_use(
    attribute: str, module: str, name: str
) -> None:
    code = (
        "import sys, scrapy_charset\n"
        f"before = {module!r} in sys.modules\n"
        f"value = scrapy_charset.{attribute}\n"
        f"print(before, value is sys.modules[{module!r}], hasattr(value, {name!r}))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=REPO
    ).stdout.split()
    assert out == ["False", "True", "True"]


def test_unknown_attribute() -> None:
    import scrapy_charset

    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        scrapy_charset.nope  # noqa: B018


def test_dir_lists_the_public_api_before_it_is_loaded() -> None:
    # Tab completion (IPython, rlcompleter) reads dir(): the lazily loaded names must be
    # there from the start, and nothing else that is not public.
    code = (
        "import sys, scrapy_charset\n"
        "names = dir(scrapy_charset)\n"
        "print(' '.join(names))\n"
        "print('scrapy_charset.responses.middleware' in sys.modules)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=REPO
    ).stdout.splitlines()
    import scrapy_charset

    assert out == [" ".join(sorted(scrapy_charset.__all__)), "False"]
    assert {"Addon", "sniff", "inspect_text", "CharsetSettingsError"} <= set(out[0].split())
    assert not {"TYPE_CHECKING", "annotations", "codecs", "sys"} & set(out[0].split())


def test_every_public_name_resolves() -> None:
    import scrapy_charset

    for name in scrapy_charset.__all__:
        assert getattr(scrapy_charset, name) is not None, name
