# Two commands: `make lessons` and `make test`. Everything else is set up by them.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-test

.PHONY: lessons test venv browser book serve-book lint typecheck pytest bench clean

$(BIN)/python:
	$(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

venv: $(STAMP)

browser:
	bash scripts/install-browser.sh

lessons: $(STAMP)
	@echo "Opening the lessons in JupyterLab: follow the URL printed below (Ctrl-C to stop)."
	$(BIN)/jupyter lab --notebook-dir=notebooks --allow-root --ip=127.0.0.1 --ServerApp.open_browser=$(if $(DISPLAY),True,False)

lint: $(STAMP)
	$(BIN)/ruff check loo_lessons tests

typecheck: $(STAMP)
	$(BIN)/mypy --strict loo_lessons

pytest: $(STAMP) browser
	$(BIN)/pytest

test: lint typecheck pytest

# the book, with its in-page engine (Pyodide from npm, pinned by package-lock.json)
book: $(STAMP)
	BIN=$(BIN) bash scripts/build-book.sh

serve-book:
	@test -d book/_build/html || $(MAKE) book
	$(BIN)/python -m http.server --bind 127.0.0.1 --directory book/_build/html 8000

bench: $(STAMP)
	$(BIN)/loo-lessons bench

clean:
	rm -rf $(VENV) book/_build node_modules
