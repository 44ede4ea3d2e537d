# Two commands: `make lessons` and `make test`. Everything else is set up by them.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-test

.PHONY: lessons test venv browser book lint typecheck pytest bench bare clean

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

test: lint typecheck bare pytest

book: $(STAMP)
	BIN=$(BIN) bash scripts/build-book.sh

bench: $(STAMP)
	$(BIN)/loo-lessons bench

clean:
	rm -rf $(VENV) $(BARE) book/_build
