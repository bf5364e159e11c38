"""The one thing pyproject.toml cannot say: the grammars (grammar/) and the site's configuration (site/)
stay at the top of the repository, where people edit them, and travel in the wheel as package data
under the package's _data/ (compiler/resources.py finds them in either place)."""

import shutil
from pathlib import Path

from setuptools import find_namespace_packages, setup
from setuptools.command.build_py import build_py

DATA = ("grammar", "site")
PACKAGE = "navlaw"  # the import name the compiler/ folder is installed as (pyproject.toml's package-dir)


class BuildWithData(build_py):
    def run(self) -> None:
        super().run()
        for name in DATA:
            target = Path(self.build_lib) / PACKAGE / "_data" / name
            shutil.rmtree(target, ignore_errors=True)
            shutil.copytree(Path(__file__).parent / name, target,
                            ignore=shutil.ignore_patterns("docs", "__pycache__", "*.pyc"))


# Every folder under compiler/ is a package of navlaw (the templates and schemas, which have no __init__.py,
# as namespace packages carrying their package data): a list kept by hand once left a new package out.
PACKAGES = [PACKAGE] + [f"{PACKAGE}.{name}" for name in find_namespace_packages(str(Path(__file__).parent / "compiler"), exclude=["*__pycache__*"])]

# setuptools' own build directory (build/lib, build/bdist.*) is kept out of build/, navlaw's default output
setup(packages=PACKAGES, cmdclass={"build_py": BuildWithData}, options={"build": {"build_base": ".setuptools-build"}})
