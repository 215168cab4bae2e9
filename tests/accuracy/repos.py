"""The corpus repositories: five realistic histories, each commit named by a mark.

Each ``spec_*`` function returns a ``build.Spec``; ``build_all`` builds them
all (a bare upstream plus a real clone each) in a second or two. What each
repository is for:

- ``tablekit``: a Python library. Fixes with and without "fix" in the subject,
  a black reformat over fixed lines, a module removed in a named commit,
  ``setup.py`` replaced by ``pyproject.toml``, a rename, release commits whose
  bodies cite issue numbers, a merged feature branch, a commit only on
  ``origin/3.x``, remote-only branches. HEAD on ``main``, clean.
- ``webshop``: a web app checked out detached at the ``v2.1`` release (a
  bisect), with a modified file and an untracked one; a hotfix branch.
- ``ratelimit``: a JS library; HEAD on ``fix/retry-after``, one commit pushed
  and one not, a staged README change; a commit only on ``origin/1.x``; a
  merged pull-request branch.
- ``docsite``: documentation with renames and deletions; local ``main`` two
  commits behind ``origin/main`` (fetched, not pulled); a commit whose 4-digit
  prefix is ambiguous on purpose.
- ``mdparse``: a parser with a longer, noisier history (many small commits
  sharing words), for queue items and paraphrases.
"""

from __future__ import annotations

from pathlib import Path

from .build import BuiltRepo, Spec, build
from .content import append, jsmodule, ledger, page, pymodule, sub

DB_FUNCTIONS = [
    ("connect", "path", 6),
    ("insert_all", "table, rows, batch_size=100", 14),
    ("upsert_all", "table, rows, pk", 12),
    ("rows_where", "table, where=None, limit=None, offset=None", 16),
    ("delete_where", "table, where, params=()", 10),
    ("create_view", "name, sql, replace=False", 9),
    ("transform", "table, types=None, rename=None", 20),
    ("_quote", "name", 3),
]


def spec_tablekit() -> Spec:
    s = Spec("tablekit")
    db = pymodule("tablekit.db: the Database class and its table helpers.", DB_FUNCTIONS, "import sqlite3\nfrom tablekit.util import chunks")
    s.commit("init", "Initial import of tablekit", "2026-05-04", writes={
        "tablekit/__init__.py": "from tablekit.db import connect\nfrom tablekit import legacy_sql\n",
        "tablekit/db.py": db,
        "tablekit/cli.py": pymodule("tablekit.cli: the command line.", [("insert", "path, table, csv=False", 12), ("query", "path, sql", 8), ("transform_cmd", "path, table", 10)]),
        "tablekit/legacy_sql.py": pymodule("SQL helpers kept for 2.x callers.", [("escape", "value", 4), ("build_where", "clauses", 6)]),
        "tablekit/util.py": pymodule("Small helpers.", [("chunks", "items, size", 5)]),
        "setup.py": "from setuptools import setup\n\nsetup(name='tablekit', version='3.8', packages=['tablekit'])\n",
        "tests/test_db.py": pymodule("Tests of tablekit.db.", [("test_insert_all", "db", 5), ("test_rows_where", "db", 6)]),
        "tests/test_cli.py": pymodule("Tests of the CLI.", [("test_insert_csv", "runner", 6)]),
        "README.md": "# tablekit\n\nA friendly layer over sqlite3.\n",
        "CHANGELOG.md": "# Changelog\n\n## 3.8\n- First public release.\n",
        "docs/cli.rst": "CLI reference\n=============\n\ninsert\n------\n\nInsert rows.\n",
        "DECISIONS.md": ledger(("2026-05-04", "Support Python 3.9 and later", "tablekit runs on Python 3.9+.")),
    })
    s.commit("release-39", "Release 3.9", "2026-05-20", writes={"CHANGELOG.md": sub("# Changelog\n", "# Changelog\n\n## 3.9\n- Faster insert_all().\n")})
    s.tag("v3.9", "release-39", "Release 3.9")
    s.commit("offset-impl", "Support offset without limit in rows_where\n\nPreviously offset= was ignored unless limit= was also passed;\nnow it emits LIMIT -1 OFFSET n.\n", "2026-06-10", writes={
        "tablekit/db.py": sub("    step_15 = _step('rows_where', 15)", "    step_15 = _step('rows_where', 15)\n    if offset is not None and limit is None:\n        sql += ' limit -1 offset {}'.format(offset)"),
        "tests/test_db.py": append("\n\ndef test_rows_where_offset_without_limit(db):\n    assert list(db.rows_where('t', offset=1))\n"),
    })
    s.commit("views-fix", "Handle empty view names in create_view\n\ncreate_view('') used to create a view named \"\" that nothing could drop.\n", "2026-06-18", writes={
        "tablekit/db.py": sub("    '''create view.'''", "    '''create view.'''\n    if not name:\n        raise ValueError('view name cannot be empty')"),
        "tests/test_db.py": append("\n\ndef test_create_view_empty_name(db):\n    with pytest.raises(ValueError):\n        db.create_view('', 'select 1')\n"),
    })
    s.commit("transaction-fix", "delete_where() no longer leaves a transaction open\n\nThe DELETE ran outside the connection's context manager.\nRefs #790\n", "2026-06-25", writes={
        "tablekit/db.py": sub("    '''delete where.'''", "    '''delete where.'''\n    with conn:\n        conn.execute('delete from [{}] where {}'.format(table, where), params)"),
    })
    # 3.x: maintenance branch from the 3.9 release, with work that never reached main.
    s.commit("backport-fts", "Escape FTS search terms\n\nQuotes in a search term broke the MATCH expression.\n", "2026-06-22", branch="3.x", parent="release-39", writes={
        "tablekit/db.py": append("\n\ndef escape_fts(term):\n    return '\"{}\"'.format(term.replace('\"', '\"\"'))\n"),
    })
    s.commit("release-391", "Release 3.9.1", "2026-06-23", branch="3.x", writes={"CHANGELOG.md": sub("## 3.9\n", "## 3.9.1\n- Escape FTS search terms.\n\n## 3.9\n")})
    s.tag("v3.9.1", "release-391", "Release 3.9.1")
    s.commit("transform-1", "Add transform --sql option to print the SQL", "2026-07-01", branch="transform-sql", parent="transaction-fix", writes={
        "tablekit/cli.py": sub("    '''transform cmd.'''", "    '''transform cmd.'''\n    if sql:\n        print(db.transform_sql(table))"),
    })
    s.commit("transform-2", "Test transform --sql", "2026-07-02", branch="transform-sql", writes={
        "tests/test_cli.py": append("\n\ndef test_transform_sql(runner):\n    assert 'CREATE TABLE' in runner.invoke(['transform', '--sql']).output\n"),
    })
    s.commit("merge-transform", "Merge branch 'transform-sql'", "2026-07-03", merge="transform-2")
    s.commit("black", "Reformat with black", "2026-07-08", writes={
        "tablekit/db.py": lambda text: text.replace("'", '"'),
        "tablekit/cli.py": lambda text: text.replace("'", '"'),
    })
    s.commit("drop-legacy", "Remove the legacy_sql module\n\nNothing has imported it since 3.0.\n", "2026-07-15", writes={
        "tablekit/legacy_sql.py": None,
        "tablekit/__init__.py": "from tablekit.db import connect\n",
    })
    s.commit("pyproject", "Move packaging metadata to pyproject.toml", "2026-07-22", writes={
        "setup.py": None,
        "pyproject.toml": '[project]\nname = "tablekit"\nversion = "4.2"\nrequires-python = ">=3.9"\n\n[build-system]\nrequires = ["setuptools>=68"]\nbuild-backend = "setuptools.build_meta"\n',
    })
    s.commit("rename-utils", "Rename util.py to utils.py", "2026-07-29", renames=[("tablekit/util.py", "tablekit/utils.py")], writes={
        "tablekit/db.py": sub("from tablekit.util import chunks", "from tablekit.utils import chunks"),
    })
    s.commit("release-42", "Release 4.2\n\n- rows_where() accepts offset= without limit= (#822)\n- delete_where() closes its transaction (#790)\n- create_view() rejects empty names\n", "2026-08-05", writes={
        "CHANGELOG.md": sub("# Changelog\n", "# Changelog\n\n## 4.2\n- rows_where() accepts offset= without limit= (#822).\n- delete_where() closes its transaction (#790).\n- create_view() rejects empty names.\n"),
    })
    s.tag("v4.2", "release-42", "Release 4.2")
    s.commit("upsert-alter", "Add alter=True to upsert_all", "2026-08-20", writes={
        "tablekit/db.py": sub('def upsert_all(table, rows, pk):', 'def upsert_all(table, rows, pk, alter=False):'),
    })
    s.commit("fts5-1", "Try the FTS5 trigram tokenizer", "2026-08-25", branch="experiment/fts5", parent="upsert-alter", writes={
        "tablekit/fts.py": pymodule("Full-text search experiments.", [("enable_fts5", "table, columns", 8)]),
    })
    s.commit("docs-transform", "Document the transform command", "2026-09-03", writes={
        "docs/cli.rst": append("\ntransform\n---------\n\nRewrite a table with new column types.\n"),
    })
    s.commit("docs-rw-1", "Rewrite the tutorial", "2026-09-05", branch="docs-rewrite", parent="docs-transform", writes={
        "docs/tutorial.rst": "Tutorial\n========\n\nStart here.\n",
    })
    s.commit("docs-rw-2", "Split the CLI reference into one page per command", "2026-09-06", branch="docs-rewrite", writes={
        "docs/cli/insert.rst": "insert\n======\n", "docs/cli/transform.rst": "transform\n=========\n",
    })
    s.commit("csv-fix", "Fix crash in insert --csv on an empty file\n\nCloses #861\n", "2026-09-15", writes={
        "tablekit/cli.py": sub('    """insert."""', '    """insert."""\n    if csv and not open(path).read(1):\n        return 0'),
        "tests/test_cli.py": append("\n\ndef test_insert_empty_csv(runner):\n    assert runner.invoke(['insert', 'empty.csv', '--csv']).exit_code == 0\n"),
    })
    s.commit("enable-wal", "Add Database.enable_wal()", "2026-10-02", writes={
        "tablekit/db.py": append('\n\ndef enable_wal(conn):\n    """enable wal."""\n    conn.execute("PRAGMA journal_mode=wal")\n'),
    })
    s.commit("deprecate-conn", "Deprecate the conn= argument of Database\n\nEmit a DeprecationWarning; pass a path or use Database.from_connection().\n", "2026-10-14", writes={
        "tablekit/db.py": sub('def connect(path):', 'def connect(path, conn=None):\n    if conn is not None:\n        warnings.warn("conn= is deprecated", DeprecationWarning)'),
    })
    s.commit("types-fix", "Correct column type detection for large integers", "2026-10-28", writes={
        "tablekit/db.py": sub('    """transform."""', '    """transform."""\n    big = 2 ** 63  # INTEGER overflows past this: store as TEXT'),
    })
    s.commit("release-43", "Release 4.3\n\n- insert --csv accepts an empty file (#861)\n- Database.enable_wal()\n", "2026-11-10", writes={
        "CHANGELOG.md": sub("# Changelog\n", "# Changelog\n\n## 4.3\n- insert --csv accepts an empty file (#861).\n- Database.enable_wal().\n"),
        "pyproject.toml": sub('version = "4.2"', 'version = "4.3"'),
    })
    s.tag("v4.3", "release-43", "Release 4.3")
    s.commit("tidy-imports", "Tidy imports in cli.py", "2026-11-20", writes={
        "tablekit/cli.py": lambda text: "import sys\n" + text,
    })
    s.commit("decision-py39", "Record the decision on Python 3.9", "2026-11-26", writes={
        "DECISIONS.md": append(ledger(("2026-11-26", "Keep Python 3.9 support until 5.0", "Python 3.9 stays supported until tablekit 5.0."))[len("# Decision Ledger\n\n"):]),
    })
    return s


def spec_webshop() -> Spec:
    s = Spec("webshop")
    cart = pymodule("Cart views.", [("cart_detail", "request", 10), ("cart_total", "cart", 8), ("add_item", "request, product_id", 9), ("remove_item", "request, line_id", 7)], "from shop.models import Cart")
    s.commit("init", "Initial shop skeleton", "2026-03-02", writes={
        "shop/models.py": pymodule("Shop models.", [("Product", "", 6), ("Cart", "", 8), ("Order", "", 10)]),
        "shop/views/cart.py": cart,
        "shop/views/checkout.py": pymodule("Checkout views.", [("checkout_start", "request", 8), ("checkout_confirm", "request", 12)], "from shop.models import Order"),
        "shop/templates/cart.html": "<h1>Your cart</h1>\n{% for line in cart.lines %}\n<p>{{ line.product }}</p>\n{% endfor %}\n",
        "shop/payments/stripe_gateway.py": pymodule("Stripe payments.", [("charge", "order", 9)]),
        "config/settings.py": "DEBUG = False\nCURRENCY = 'EUR'\n",
        "Makefile": "test:\n\tpytest -q\n",
        "README.md": "# webshop\n",
        "requirements.txt": "django==5.0\nstripe==8.0\n",
        "tests/test_cart.py": pymodule("Cart tests.", [("test_total", "client", 5)]),
        "DECISIONS.md": ledger(("2026-03-02", "Prices are stored in cents", "Every price is an integer number of cents.")),
    })
    s.commit("cart-total", "Cart total ignores removed items\n\nThe total summed every line, including those marked removed.\n", "2026-03-15", writes={
        "shop/views/cart.py": sub("    '''cart total.'''", "    '''cart total.'''\n    lines = [line for line in cart.lines if not line.removed]"),
    })
    s.commit("coupon", "Add percentage coupons", "2026-04-01", writes={
        "shop/models.py": append("\n\nclass Coupon:\n    percent = 0\n"),
    })
    s.commit("release-20", "Release 2.0", "2026-04-10", writes={"CHANGELOG.md": "# Changelog\n\n## 2.0\n- Coupons.\n"})
    s.tag("v2.0", "release-20")
    s.commit("paypal", "Add PayPal gateway", "2026-04-20", writes={
        "shop/payments/paypal_gateway.py": pymodule("PayPal payments.", [("charge", "order", 11)]),
    })
    s.commit("drop-stripe", "Drop the Stripe gateway\n\nStripe was replaced by PayPal in 2.0.\n", "2026-05-05", writes={
        "shop/payments/stripe_gateway.py": None,
        "requirements.txt": "django==5.0\n",
    })
    s.commit("session-fix", "Fix checkout losing the session on redirect (#214)", "2026-05-20", writes={
        "shop/views/checkout.py": sub("    '''checkout confirm.'''", "    '''checkout confirm.'''\n    request.session.modified = True"),
    })
    s.commit("move-templates", "Move templates under shop/templates/shop/", "2026-06-01", renames=[("shop/templates/cart.html", "shop/templates/shop/cart.html")])
    s.commit("isort", "Sort imports with isort", "2026-06-10", writes={
        "shop/views/cart.py": lambda text: text.replace("from shop.models import Cart", "import logging\n\nfrom shop.models import Cart"),
        "shop/views/checkout.py": lambda text: text.replace("from shop.models import Order", "import logging\n\nfrom shop.models import Order"),
    })
    s.commit("release-21", "Release 2.1 (#214, #220)", "2026-06-15", writes={"CHANGELOG.md": sub("## 2.0\n", "## 2.1\n- Checkout keeps the session (#214).\n- Stock is checked (#220).\n\n## 2.0\n")})
    s.tag("v2.1", "release-21")
    s.commit("hotfix-rounding", "Round coupon discounts half-up", "2026-06-20", branch="hotfix/2.1.1", parent="release-21", writes={
        "shop/models.py": append("\n\ndef discount(total, percent):\n    return (total * percent + 50) // 100\n"),
    })
    s.tag("v2.1.1", "hotfix-rounding")
    s.commit("stock-check", "Check stock before confirming an order (#220)", "2026-07-01", writes={
        "shop/views/checkout.py": sub("    request.session.modified = True", "    request.session.modified = True\n    ensure_in_stock(request.cart)"),
    })
    s.commit("wishlist-1", "Add a wishlist model", "2026-07-10", branch="feature/wishlist", parent="stock-check", writes={
        "shop/wishlist.py": pymodule("Wishlists.", [("Wishlist", "", 6)]),
    })
    s.commit("currency", "Show prices in the customer's currency", "2026-08-12", writes={
        "config/settings.py": append("CURRENCIES = ['EUR', 'USD', 'GBP']\n"),
    })
    s.commit("refund", "Add partial refunds to the admin", "2026-09-09", writes={
        "shop/admin.py": pymodule("Admin actions.", [("partial_refund", "order, amount", 9)]),
    })
    s.checkout("release-21", detach=True)
    s.modify("shop/views/cart.py", append("\n# bisect: suspect the total\n"))
    s.modify("bisect.log", "git bisect start\n")
    return s


def spec_ratelimit() -> Spec:
    s = Spec("ratelimit")
    s.commit("init", "Initial commit", "2026-08-01", writes={
        "src/bucket.js": jsmodule("Token bucket limiter.", [("createBucket", "rate, capacity", 6), ("take", "bucket, now", 10), ("refill", "bucket, now", 8)]),
        "src/window.js": jsmodule("Fixed window limiter.", [("createWindow", "limit, ms", 5), ("hit", "win, now", 7)]),
        "src/stores/memory.js": jsmodule("In-memory store.", [("createMemoryStore", "", 5), ("cleanup", "store, now", 9)]),
        "src/index.js": "module.exports = { ...require('./bucket'), ...require('./window') };\n",
        "test/bucket.test.js": "test('take', () => {});\n",
        "package.json": '{\n  "name": "ratelimit",\n  "version": "1.0.0",\n  "engines": { "node": ">=14" }\n}\n',
        "README.md": "# ratelimit\n\nToken buckets and windows.\n",
        "CHANGELOG.md": "# Changelog\n\n## 1.0.0\n- First release.\n",
        "DECISIONS.md": ledger(("2026-08-01", "Zero runtime dependencies", "The core package depends on nothing.")),
    })
    s.commit("refill-fix", "Refill tokens based on elapsed time, not calls\n\nrefill() added one token per call, so a busy caller was never limited.\n", "2026-08-05", writes={
        "src/bucket.js": sub("  const step0 = step('refill', 0);", "  const elapsed = now - bucket.last;\n  bucket.tokens = Math.min(bucket['capacity'], bucket.tokens + elapsed * bucket['rate']);\n  const step0 = step('refill', 0);"),
    })
    s.commit("sliding", "Add sliding window limiter", "2026-08-12", writes={
        "src/sliding.js": jsmodule("Sliding window limiter.", [("createSliding", "limit, ms", 6), ("hitSliding", "win, now", 9)]),
    })
    s.commit("prettier", "Format with prettier", "2026-08-14", writes={
        "src/bucket.js": lambda text: text.replace("'", '"'),
        "src/window.js": lambda text: text.replace("'", '"'),
    })
    s.commit("release-110", "v1.1.0\n\n- Sliding windows (#41)\n", "2026-08-20", writes={
        "CHANGELOG.md": sub("## 1.0.0\n", "## 1.1.0\n- Sliding windows (#41).\n\n## 1.0.0\n"),
        "package.json": sub('"version": "1.0.0"', '"version": "1.1.0"'),
    })
    s.tag("v1.1.0", "release-110")
    s.commit("redis-store", "Add Redis store (#45)", "2026-09-02", writes={
        "src/stores/redis.js": jsmodule("Redis store.", [("createRedisStore", "client", 7), ("incr", "store, key", 6)]),
    })
    s.commit("memory-leak", "Fix memory leak in MemoryStore cleanup (#48)\n\nExpired keys were never deleted from the map.\n", "2026-09-10", writes={
        "src/stores/memory.js": sub("  const step0 = step('cleanup', 0);", "  for (const [key, entry] of store.map) if (entry.expires < now) store.map.delete(key);\n  const step0 = step('cleanup', 0);"),
    })
    s.commit("1x-clock", "Use a monotonic clock for refill timing", "2026-09-15", branch="1.x", parent="release-110", writes={
        "src/bucket.js": sub('"use strict";', '"use strict";\nconst now = () => Number(process.hrtime.bigint() / 1000000n);'),
    })
    s.tag("v1.1.1", "1x-clock")
    s.commit("ts-types", "Ship TypeScript declarations", "2026-09-20", writes={
        "index.d.ts": "export declare function createBucket(rate: number, capacity: number): Bucket;\n",
    })
    s.commit("drop-node14", "Drop Node 14 support", "2026-10-01", writes={"package.json": sub('">=14"', '">=18"')})
    s.commit("release-120", "v1.2.0\n\n- Redis store (#45)\n- MemoryStore no longer leaks (#48)\n", "2026-10-05", writes={
        "CHANGELOG.md": sub("## 1.1.0\n", "## 1.2.0\n- Redis store (#45).\n- MemoryStore no longer leaks (#48).\n\n## 1.1.0\n"),
        "package.json": sub('"version": "1.1.0"', '"version": "1.2.0"'),
    })
    s.tag("v1.2.0", "release-120")
    s.commit("metrics-1", "Expose limiter metrics", "2026-10-12", branch="feat/metrics", parent="release-120", writes={
        "src/metrics.js": jsmodule("Limiter metrics.", [("snapshot", "limiter", 8)]),
    })
    s.commit("burst", "Allow a burst size larger than the rate", "2026-10-20", writes={
        "src/bucket.js": sub("function createBucket(rate, capacity) {", "function createBucket(rate, capacity, burst = capacity) {"),
    })
    s.commit("merge-metrics", "Merge pull request #52 from feat/metrics\n\nExpose limiter metrics\n", "2026-10-25", merge="metrics-1")
    s.commit("retry-1", "Compute Retry-After from the next refill", "2026-11-02", branch="fix/retry-after", parent="merge-metrics", writes={
        "src/retry.js": jsmodule("Retry-After header.", [("retryAfter", "bucket, now", 7)]),
    })
    s.commit("retry-2", "Test Retry-After rounding", "2026-11-03", branch="fix/retry-after", local=True, writes={
        "test/retry.test.js": "test('rounds up', () => {});\n",
    })
    s.ambiguous.append("burst")
    s.track("fix/retry-after", "origin/fix/retry-after")
    s.checkout("fix/retry-after")
    s.modify("README.md", append("\n## Retry-After\n\nSee src/retry.js.\n"), stage=True)
    return s


def spec_docsite() -> Spec:
    s = Spec("docsite")
    s.commit("init", "Import the handbook", "2026-01-10", writes={
        "docs/index.md": page("Handbook", 4),
        "docs/install.md": page("Install", 6),
        "docs/config.md": page("Configuration", 8),
        "docs/faq.md": page("FAQ", 5),
        "mkdocs.yml": "site_name: Handbook\nnav:\n  - index.md\n  - install.md\n  - config.md\n  - faq.md\n",
        "theme/base.html": "<html><body>{{ content }}</body></html>\n",
        "scripts/build.sh": "#!/bin/sh\nmkdocs build --strict\n",
        "README.md": "# Handbook sources\n",
        "DECISIONS.md": ledger(("2026-01-10", "Docs are built with mkdocs", "mkdocs builds the site.")),
    })
    s.commit("install-windows", "Document installing on Windows", "2026-02-01", writes={"docs/install.md": append("\n## Windows\n\nUse the installer.\n")})
    s.commit("restructure", "Move guides under docs/guides/", "2026-02-20", renames=[("docs/install.md", "docs/guides/install.md"), ("docs/config.md", "docs/guides/configuration.md")], writes={
        "mkdocs.yml": "site_name: Handbook\nnav:\n  - index.md\n  - guides/install.md\n  - guides/configuration.md\n  - faq.md\n",
    })
    s.commit("faq-remove", "Fold the FAQ into the guides", "2026-03-05", writes={
        "docs/faq.md": None,
        "docs/guides/install.md": append("\n## Frequently asked\n\nSee below.\n"),
        "mkdocs.yml": sub("  - faq.md\n", ""),
    })
    s.commit("nav-fix", "Repair broken links in the navigation", "2026-03-12", writes={"mkdocs.yml": sub("nav:\n", "nav:\n  - Home: index.md\n")})
    s.commit("wrap", "Rewrap all pages at 100 columns", "2026-03-20", writes={
        "docs/index.md": lambda t: t.replace(": lorem", ":\nlorem"),
        "docs/guides/install.md": lambda t: t.replace(": lorem", ":\nlorem"),
        "docs/guides/configuration.md": lambda t: t.replace(": lorem", ":\nlorem"),
        "mkdocs.yml": append("# wrapped\n"),
    })
    s.commit("search", "Enable the search plugin", "2026-04-02", writes={"mkdocs.yml": append("plugins:\n  - search\n")})
    s.commit("fr-1", "Translate the install guide to French", "2026-04-10", branch="translations/fr", parent="search", writes={
        "docs/fr/guides/install.md": page("Installation", 6, "le texte en francais"),
    })
    s.commit("dark", "Add a dark theme toggle", "2026-04-15", writes={"theme/toggle.js": "document.body.classList.toggle('dark');\n"})
    s.commit("drop-build-sh", "Replace scripts/build.sh with a Makefile", "2026-05-01", writes={
        "scripts/build.sh": None, "Makefile": "build:\n\tmkdocs build --strict\n",
    })
    s.commit("api-ref", "Generate the API reference from docstrings", "2026-05-20", writes={"docs/reference/api.md": page("API reference", 12)})
    s.commit("release-notes", "Publish release notes for 2026.6 (#133, #140)", "2026-06-01", writes={"docs/releases/2026.6.md": page("2026.6", 3)})
    s.commit("versioning", "Version the docs with mike (#140)", "2026-06-15", writes={"mkdocs.yml": append("extra:\n  version:\n    provider: mike\n")})
    s.commit("typo", "Typos", "2026-06-20", writes={"docs/index.md": lambda t: t.replace("Handbook paragraph 1", "The handbook, paragraph 1")})
    s.ambiguous.append("nav-fix")
    s.move_branch("main", "api-ref")
    return s


def spec_mdparse() -> Spec:
    s = Spec("mdparse")
    funcs = [("parse_block", "lines", 18), ("parse_inline", "text", 22), ("parse_table", "lines", 16), ("parse_link", "text, pos", 12), ("render_html", "tree", 20)]
    s.commit("init", "Initial parser", "2025-12-01", writes={
        "mdparse/parser.py": pymodule("Block and inline parsing.", funcs),
        "mdparse/render.py": pymodule("Renderers.", [("to_html", "tree", 10), ("to_text", "tree", 8)]),
        "mdparse/__init__.py": "from mdparse.parser import parse_block\n",
        "tests/test_parser.py": pymodule("Parser tests.", [("test_heading", "", 4), ("test_emphasis", "", 4)]),
        "CHANGELOG.md": "# Changelog\n",
        "DECISIONS.md": ledger(("2025-12-01", "CommonMark is the reference", "Follow CommonMark 0.31 where it speaks.")),
        "README.md": "# mdparse\n",
    })
    # A long run of small commits that share words with the queue items on purpose.
    noise = [
        ("tests-heading", "Add tests for setext headings", "2025-12-05", "tests/test_parser.py"),
        ("inline-emph", "Parse nested emphasis", "2025-12-09", "mdparse/parser.py"),
        ("tests-emph", "Add tests for nested emphasis", "2025-12-10", "tests/test_parser.py"),
        ("table-align", "Support column alignment in tables", "2025-12-20", "mdparse/parser.py"),
        ("docs-tables", "Document table parsing", "2026-01-03", "README.md"),
        ("link-refs", "Resolve reference-style links", "2026-01-15", "mdparse/parser.py"),
        ("perf-inline", "Speed up inline parsing of long paragraphs", "2026-01-28", "mdparse/parser.py"),
        ("render-escape", "Escape HTML in code spans", "2026-02-10", "mdparse/render.py"),
        ("tests-links", "Add tests for link titles", "2026-02-18", "tests/test_parser.py"),
        ("autolink", "Recognise bare URLs as autolinks (#57)", "2026-03-02", "mdparse/parser.py"),
        ("release-10", "Release 1.0 (#57)", "2026-03-10", "CHANGELOG.md"),
        ("footnotes", "Parse footnotes", "2026-03-25", "mdparse/parser.py"),
        ("tests-footnotes", "Test footnote numbering", "2026-03-27", "tests/test_parser.py"),
        ("strikethrough", "Add strikethrough (~~text~~)", "2026-04-08", "mdparse/parser.py"),
        ("tasklists", "Render task list items as checkboxes", "2026-04-22", "mdparse/render.py"),
        ("crlf", "Treat CRLF line endings like LF", "2026-05-06", "mdparse/parser.py"),
        ("deep-nesting", "Limit blockquote nesting to 100 levels\n\nA crafted input of 100k '>' characters exhausted the stack.\n", "2026-05-19", "mdparse/parser.py"),
        ("release-11", "Release 1.1", "2026-05-30", "CHANGELOG.md"),
        ("plugin-api", "Add a plugin API for custom inline rules (#71)", "2026-06-14", "mdparse/plugins.py"),
        ("tests-plugin", "Test the plugin API", "2026-06-16", "tests/test_plugins.py"),
        ("render-text", "Render tables as aligned plain text", "2026-07-01", "mdparse/render.py"),
        ("unicode-case", "Fold Unicode case when matching link labels", "2026-07-20", "mdparse/parser.py"),
        ("smart-quotes", "Optional smart quotes", "2026-08-04", "mdparse/render.py"),
        ("release-12", "Release 1.2 (#71, #88)", "2026-08-15", "CHANGELOG.md"),
        ("math", "Parse $inline$ and $$display$$ math (#88)", "2026-08-10", "mdparse/parser.py"),
    ]
    noise.sort(key=lambda n: n[2])
    for mark, message, date, path in noise:
        s.commit(mark, message, date, writes={path: append(f"\n# {mark}: {message.splitlines()[0]}\n")})
    s.tag("v1.0", "release-10")
    s.tag("v1.1", "release-11")
    s.tag("v1.2", "release-12")
    s.commit("drop-py38", "Require Python 3.10", "2026-09-01", writes={"pyproject.toml": '[project]\nname = "mdparse"\nrequires-python = ">=3.10"\n'})
    s.commit("table-pipes", "Allow escaped pipes inside table cells\n\nCells split on every '|', even '\\|'.\n", "2026-09-12", writes={
        "mdparse/parser.py": sub("    '''parse table.'''", "    '''parse table.'''\n    cells = split_unescaped(line, '|')"),
    })
    s.commit("ruff", "Apply ruff format", "2026-09-20", writes={
        "mdparse/parser.py": lambda t: t.replace("'", '"'), "mdparse/render.py": lambda t: t.replace("'", '"'),
    })
    s.commit("drop-text-renderer", "Remove the plain-text renderer\n\nto_text() had no users; HTML is the only output.\n", "2026-10-03", writes={
        "mdparse/render.py": lambda t: t.split("\n\ndef to_text")[0] + "\n",
    })
    s.commit("split-inline", "Move inline parsing to mdparse/inline.py", "2026-10-15", writes={
        "mdparse/inline.py": pymodule("Inline parsing.", [("parse_inline", "text", 22), ("parse_link", "text, pos", 12)]),
    })
    s.commit("2x-port", "Limit list nesting to 100 levels", "2026-10-20", branch="2.x", parent="release-12", writes={
        "mdparse/parser.py": append("\nMAX_LIST_DEPTH = 100\n"),
    })
    s.commit("entities", "Decode numeric character references above U+FFFF", "2026-10-29", writes={"mdparse/inline.py": append("\n# astral entities\n")})
    s.commit("release-20", "Release 2.0\n\nBreaking: to_text() is gone, Python 3.10+.\n", "2026-11-05", writes={"CHANGELOG.md": append("\n## 2.0\n- Removed to_text().\n")})
    s.tag("v2.0", "release-20")
    s.ambiguous.append("footnotes")
    s.commit("html-attrs", "Sanitize attributes in raw HTML blocks", "2026-11-18", writes={"mdparse/render.py": append("\n# sanitize attributes\n")})
    return s


SPECS = (spec_tablekit, spec_webshop, spec_ratelimit, spec_docsite, spec_mdparse)


def build_all(root: Path) -> dict[str, BuiltRepo]:
    """Every corpus repository, built under ``root`` (one sub-directory each)."""
    root = Path(root)
    root.mkdir(parents=True, exist_ok=True)
    return {spec().name: build(spec(), root) for spec in SPECS}
