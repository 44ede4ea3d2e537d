# Two commands: `make lessons` and `make test`. Everything else is set up by them.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-test
LESSONS_STAMP := $(VENV)/.installed-lessons
# `make lessons PORT=9000`: the first free port from PORT up is taken, so two learners on one
# machine do not collide (JupyterLab prints the URL it took).
PORT ?= 8888
# The folder JupyterLab serves: the lessons beside the book's reference pages (tools/lab_root.py)
LAB_ROOT := .lessons

.PHONY: jscheck lessons test venv browser hubproxy book serve-book lint typecheck pytest bench bare clean dist

$(BIN)/python:
	$(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

venv: $(STAMP)

browser:
	bash scripts/install-browser.sh

# JupyterHub's proxy for the class-hub test, from deploy/jupyterhub/package-lock.json
hubproxy:
	bash deploy/jupyterhub/install-proxy.sh

# What the lessons need and nothing more (the test target installs the whole toolchain).
$(LESSONS_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[lessons]'
	touch $(LESSONS_STAMP)

# Lessons stay clean in git: JupyterLab saves them without outputs (tools/lab_config.py), and
# git's clean filter of .gitattributes, registered here, strips any that a lesson saved
# another way still has (tools/strip_outputs.py, standard library).
lessons: $(LESSONS_STAMP)
	@if git rev-parse --git-dir >/dev/null 2>&1; then \
	  git config filter.loo-outputs.clean "python3 tools/strip_outputs.py"; \
	  git config filter.loo-outputs.smudge cat; fi
	$(BIN)/python -m tools.lab_root $(LAB_ROOT)
	@echo "Opening the lessons in JupyterLab: follow the URL printed below (Ctrl-C to stop)."
	@echo "In a lesson, choose Run -> Run All Cells (or the ⏩ button, restart and run all), then read down the page."
	$(BIN)/jupyter lab --config=tools/lab_config.py --ServerApp.root_dir=$(LAB_ROOT) --allow-root --ip=127.0.0.1 \
	  --ServerApp.port=$(PORT) --ServerApp.port_retries=50 \
	  --LabApp.default_url=/lab/tree/notebooks/01-welcome.ipynb \
	  --ServerApp.open_browser=$(if $(DISPLAY),True,False)

lint: $(STAMP)
	$(BIN)/ruff check loo_lessons tests tools book/_ext deploy

typecheck: $(STAMP)
	$(BIN)/mypy --strict loo_lessons tools tests

# Two processes (pytest-xdist): each test module stays in one, the modules that read the walk
# through the book together (tests/conftest.py), longest first.
PYTEST_WORKERS ?= 2
pytest: $(STAMP) browser hubproxy
	$(BIN)/pytest -n $(PYTEST_WORKERS) --dist loadscope --no-loadscope-reorder --durations=40

# A bare install in its own venv: `pip install .` with no extras (PyYAML only), then every
# command a class may run without the lessons extra (scripts/bare-check.sh).
BARE := .venv-bare

$(BARE)/bin/python:
	$(PY) -m venv $(BARE)
	$(BARE)/bin/python -m pip install --quiet --upgrade pip hatchling
	$(BARE)/bin/python -m pip install --quiet --no-build-isolation .

bare: | $(BARE)/bin/python
	$(BARE)/bin/python -m pip install --quiet --no-deps --no-build-isolation --force-reinstall .
	bash scripts/bare-check.sh

# The JavaScript held to a check as the Python is: eslint (eslint.config.mjs) and tsc --strict
# over every file (jsconfig.json: the page's; jsconfig.worker.json: the engine's worker), the
# shapes they share typed once in js/types.d.ts and page.d.ts, the component events and the play
# table's requests typed from the controllers (tools/js_events.py writes js/events.d.ts).
# Pinned by package-lock.json.
node_modules/.package-lock.json: package.json package-lock.json
	npm ci --no-audit --no-fund

jscheck: node_modules/.package-lock.json $(STAMP)
	$(BIN)/python -m tools.js_events --check
	npx --no-install eslint loo_lessons/widgets/js book/_static/loo-playground.js book/_static/loo-offline.js book/_static/loo-book.js loo_lessons/classroom/tables/live.js loo_lessons/classroom/tables/seat_page.js
	npx --no-install tsc -p jsconfig.json
	npx --no-install tsc -p jsconfig.worker.json

test: lint typecheck jscheck bare pytest

# The book, with its in-page engine (Pyodide from npm, pinned by package-lock.json): needs
# Node.js 20+ with npm. Installs the `book` extra only (Jupyter Book and the lessons' packages),
# not the test toolchain; the generated pages are written first (python -m tools.book_pages).
BOOK_STAMP := $(VENV)/.installed-book
$(BOOK_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[book]'
	touch $(BOOK_STAMP)

book: $(BOOK_STAMP)
	@command -v npm >/dev/null || test -d node_modules/pyodide || \
	  { echo "make book needs Node.js 20+ with npm (the in-page engine comes from npm)"; exit 2; }
	BIN=$(BIN) bash scripts/build-book.sh

# The release (tools/dist.py): the sdist and the wheel from git's tracked files into dist/, and
# the offline book as its own data-only wheel (loo-lessons-book) when book/_build/html is there
# (`make book` first). Needs hatchling (the test extra has it).
dist: $(STAMP)
	$(BIN)/python -m tools.dist --out dist

serve-book:
	@test -d book/_build/html || $(MAKE) book
	$(PY) -m http.server --bind 127.0.0.1 --directory book/_build/html 8000

bench: $(STAMP)
	$(BIN)/loo-lessons bench

clean:
	rm -rf $(VENV) $(BARE) book/_build $(LAB_ROOT) node_modules dist
