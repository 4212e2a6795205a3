"""The wheel ships ``configs/*.yaml`` as package data (``halo/configs/``), the defaults that files of the same name in
``./configs`` override (``halo.config.files``). Everything else is in pyproject.toml."""

from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py


class BuildPyWithConfigs(build_py):
    def run(self) -> None:
        super().run()
        out = Path(self.build_lib) / "halo" / "configs"
        out.mkdir(parents=True, exist_ok=True)
        for f in sorted(Path(__file__).resolve().parent.joinpath("configs").glob("*.yaml")):
            (out / f.name).write_bytes(f.read_bytes())


setup(cmdclass={"build_py": BuildPyWithConfigs})
