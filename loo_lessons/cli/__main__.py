"""`python -m loo_lessons.cli ...`: the same as the `loo-lessons` command."""

import sys

from loo_lessons.cli import main

sys.exit(main())
