"""The shared codes folded into the device modules as they are compiled
(host_tools/build/fold.py): the numbers are the codes' own, the names are gone from the
compiled modules, a text that would change meaning is refused, and every device module of
the sim's build still imports on MicroPython."""
import os
import subprocess
import textwrap

import pytest

from host_tools.build import manifests
from host_tools.build.fold import Fold, FoldError
from host_tools.build import sim as simbuild

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

CODES = textwrap.dedent("""\
    from micropython import const
    _BASE = const(4)
    A = const(1)
    B = const(A << _BASE)   # 16
    NEG = const(-3)
    WORD = "a string is no code"


    def event(kind, arg):
        return kind << 24 | arg + A
    """)


def _fold(user, extra=None):
    sources = {"pkg.codes": CODES, "pkg.user": user}
    sources.update(extra or {})
    return Fold(sources)


def _run(text, codes_text):
    # Execute a folded user against the folded codes module, in CPython.
    import sys
    import types
    mp = types.ModuleType("micropython")
    mp.const = lambda v: v
    pkg = types.ModuleType("pkg")
    codes = types.ModuleType("pkg.codes")
    saved = {k: sys.modules.get(k) for k in ("micropython", "pkg", "pkg.codes")}
    sys.modules.update({"micropython": mp, "pkg": pkg, "pkg.codes": codes})
    pkg.codes = codes
    try:
        exec(compile(codes_text, "codes", "exec"), codes.__dict__)
        env = {}
        exec(compile(text, "user", "exec"), env)
        return env, codes
    finally:
        for k, v in saved.items():
            if v is None:
                sys.modules.pop(k, None)
            else:
                sys.modules[k] = v


def test_the_codes_are_the_numbers_of_their_definitions():
    fold = _fold("")
    assert fold.codes["pkg.codes"] == {"A": 1, "B": 16, "NEG": -3}


def test_a_folded_module_computes_what_its_source_does_without_the_names():
    user = textwrap.dedent("""\
        from pkg.codes import A, B, event
        from pkg import codes as C
        from pkg.codes import (NEG,
                               WORD)
        X = A + B * 2
        Y = C.NEG ** 2
        Z = C.B.bit_length()
        W = event(C.A, NEG)
        V = (WORD, C.WORD)


        def f(n=B):
            return n - NEG
        F = f()
        """)
    fold = _fold(user)
    text = fold.text(user, "pkg.user")
    codes_text = fold.text(CODES, "pkg.codes")
    assert text.count("\n") == user.count("\n")
    for name in ("A", "B", "NEG"):
        assert not any(tok == name for tok in text.replace("(", " ").replace(")", " ")
                       .replace(",", " ").replace(".", " ").split()), (name, text)
    assert "from pkg.codes import event" in text and "from pkg.codes import WORD" in text
    folded, codes = _run(text, codes_text)
    plain, _ = _run(user, CODES)
    for k in ("X", "Y", "Z", "W", "V", "F"):
        assert folded[k] == plain[k], k
    assert (folded["Y"], folded["F"]) == (9, 19)
    # The codes module itself defines them no more; its other names stay.
    assert not hasattr(codes, "A") and not hasattr(codes, "NEG")
    assert codes.WORD == "a string is no code" and codes.event(1, 0) == (1 << 24) + 1


def test_a_reexported_code_folds_through_its_reexporter():
    relay = "from pkg.codes import B as BIG\nHALF = 8\n"
    user = "from pkg.relay import BIG, HALF\nX = BIG + HALF\n"
    fold = _fold(user, {"pkg.relay": relay})
    assert fold.codes["pkg.relay"] == {"BIG": 16}
    assert fold.text(user, "pkg.user") == "from pkg.relay import HALF\nX = 16 + HALF\n"
    assert fold.text(relay, "pkg.relay").startswith("pass\n")


@pytest.mark.parametrize("user,says", [
    ("from pkg.codes import A\nA = 2\n", "assigns A"),
    ("from pkg.codes import A\ndef f(A):\n    return A\n", "takes an argument named A"),
    ("from pkg.codes import A\nf = dict(A=1)\n", "passes a keyword named A"),
    ("from pkg.codes import A\nx = f'{A}'\n", "uses inside an f-string A"),
    ("from pkg.codes import A\ndef A():\n    pass\n", "defines A"),
    ("import pkg.codes\nx = pkg.codes.A\n", "pkg.codes.A: import the module"),
    ("from pkg import codes as C\nx = getattr(C, 'A')\n", "getattr of a module"),
])
def test_a_text_that_folding_would_change_is_refused(user, says):
    with pytest.raises(FoldError) as e:
        _fold(user).text(user, "pkg.user", "pkg/user.py")
    assert says in str(e.value) and "pkg/user.py:" in str(e.value)


def test_a_module_with_no_code_is_left_as_it_is():
    user = "import gc\nx = 1  # A\n"
    assert _fold(user).text(user, "pkg.user") == user


def test_the_device_tree_folds_and_its_compiled_modules_name_no_code():
    fold = Fold.of_tree(ROOT, simbuild.DEVICE_DIRS)
    assert fold.codes["engine_core.codes"]["EV_UNDO"] == 7
    assert fold.codes["firmware.codes"]["LONG"] == 0x10
    out = simbuild.build()
    with open(os.path.join(out, "firmware", "app.mpy"), "rb") as f:
        app = f.read()
    with open(os.path.join(out, "engine_core", "codes.mpy"), "rb") as f:
        codes = f.read()
    for name in (b"EV_UNDO", b"BIDDING", b"LONG"):
        assert name not in app, name
    assert b"EV_BID" not in codes and b"event" in codes


# The hardware boards' files need the chip's machine module (SPI, Pin): the unix port's
# has neither. The DIY board's imports run on the fake chip (boards/sim/chip/) in the heap budget's
# test (tests/e2e/test_heap_budget.py).
HARDWARE = tuple("boards." + b for b in manifests.boards())


@pytest.mark.skipif(not os.path.exists(simbuild.tool("micropython")),
                    reason="the MicroPython unix port is not set up")
def test_every_folded_device_module_imports_on_micropython():
    out = simbuild.build()
    names = []
    for top in simbuild.DEVICE_DIRS:
        for folder, _, files in os.walk(os.path.join(out, top)):
            for f in files:
                if f.endswith(".mpy"):
                    rel = os.path.relpath(os.path.join(folder, f), out)[:-4]
                    name = rel.replace(os.sep, ".")
                    name = name[:-9] if name.endswith(".__init__") else name
                    if ".main." not in name and "manifest" not in name:
                        names.append(name)     # boards/main/: the boards' scripts
    script = simbuild.write_script(out, "importall.py", textwrap.dedent("""\
        for name in %r:
            try:
                __import__(name)
            except Exception as e:
                print("failed", name, repr(e))
        print("done")
        """ % sorted(names)), "files")
    r = subprocess.run([simbuild.tool("micropython"), "-X", "heapsize=4M", script],
                       cwd=out, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and "done" in r.stdout, r.stdout + r.stderr
    failed = [line for line in r.stdout.split("\n") if line.startswith("failed")]
    assert len(names) > 60
    assert sorted(line.split(" ")[1] for line in failed) == sorted(HARDWARE), failed
    assert all("ImportError" in line for line in failed), failed
