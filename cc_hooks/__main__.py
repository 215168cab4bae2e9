from cc_hooks.cli import main

raise SystemExit(main())
