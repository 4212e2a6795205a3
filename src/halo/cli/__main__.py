from halo.cli import app

app()
