"""``python -m engine``: see engine.cli."""

from engine.cli.main import main

raise SystemExit(main())
