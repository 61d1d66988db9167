"""``python -m renderer.cli``: the ``readermode`` command."""

import sys

from renderer.cli import main

sys.exit(main())
