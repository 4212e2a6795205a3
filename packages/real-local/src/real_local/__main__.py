"""``python -m real_local``: the ``real-local`` command."""

import sys

from real_local.cli import main

sys.exit(main())
