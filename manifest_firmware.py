# The Tally 42 modules every frozen build carries; paths are relative to this file, so
# the project may lie anywhere. Board manifests (boards/manifest_*.py) include it.
package("engine_core")
package("firmware", opt=3)
module("boards/__init__.py")
module("boards/device.py")
