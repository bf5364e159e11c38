"""The stages of `navlaw build` that ``--dump STAGE`` can print (compiler/build.py): named here, apart
from the pipeline, so that the command line knows them without importing it (tests/test_startup.py)."""

STAGES = ("manifest", "tree", "timeline", "tariffs", "lint", "module", "outputs", "site")
