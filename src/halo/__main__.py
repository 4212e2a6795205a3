"""``python -m halo``: the ``halo`` command."""

from halo.cli import app

app(prog_name="halo")
