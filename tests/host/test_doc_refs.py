"""The docs' cross-references: docs/pc-tool.md lists every command `tally42 --help`
lists; every `docs/PAGE.md, "Section"` that the commands' help and messages name is a
heading of that page; the maker's guides' links lead somewhere."""
import os
import re

import pytest

from host_tools import cli

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _read(*parts):
    with open(os.path.join(ROOT, *parts)) as f:
        return f.read()


def _headings(page):
    return [h.strip() for h in re.findall(r"^#+ (.*)$", _read(page), re.M)]


def test_pc_tool_lists_every_command():
    text = _read("docs", "pc-tool.md")
    table = re.findall(r"^\| `tally42 (\w+)", text, re.M)
    assert sorted(set(table)) == sorted(cli.COMMANDS), (table, list(cli.COMMANDS))


def _host_texts():
    for folder, _, names in os.walk(os.path.join(ROOT, "host_tools")):
        for name in names:
            if name.endswith(".py"):
                path = os.path.join(folder, name)
                # The source's string literals joined as Python joins them.
                yield path, re.sub(r'"\s*\n\s*"', "", _read(path))


REF = re.compile(r'(docs/[\w/-]+\.md),? \\?"([^"\\]+)\\?"')


def test_every_section_the_commands_name_is_there():
    found = 0
    for path, text in _host_texts():
        for page, section in REF.findall(text):
            found += 1
            heads = _headings(page)
            assert any(h == section or h.startswith(section) for h in heads), (
                "%s names %s, \"%s\": not a heading there" % (path, page, section))
    assert found >= 4


def test_deploy_help_names_the_page_that_explains_partitions():
    from host_tools.commands import device
    import argparse
    p = argparse.ArgumentParser()
    sub = p.add_subparsers()
    desc = device.deploy_parser(sub, "deploy").description
    page, section = REF.search(desc).groups()
    text = _read(page)
    body = text[text.index("### " + section):]
    assert "0x3f0000" in body and "inisetup.py" in body and "journal" in body


@pytest.mark.parametrize("page", ["hardware.md", "boards/esp32_epd29.md",
                                  "boards/lilygo_t5_213.md", "boards/m5stack_coreink.md"])
def test_the_guides_links_lead_somewhere(page):
    text = _read("docs", page)
    here = os.path.dirname(os.path.join(ROOT, "docs", page))
    for target in re.findall(r"\]\(([^)#:]+)(?:#[^)]*)?\)", text):
        assert os.path.exists(os.path.join(here, target)), (page, target)
    for anchor in re.findall(r"\]\([^)#:]*hardware\.md#([^)]+)\)", text):
        slugs = [re.sub(r"[^a-z0-9 -]", "", h.lower()).replace(" ", "-")
                 for h in _headings(os.path.join("docs", "hardware.md"))]
        assert anchor in slugs, (page, anchor)
