# Two commands: `make lessons` and `make test`. Everything else is set up by them.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-test

.PHONY: lessons test venv browser book lint typecheck pytest bench clean

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

book: $(STAMP)
	BIN=$(BIN) bash scripts/build-book.sh

.PHONY: serve-book
# The built book through a plain local web server (the live engine does not load from file://).
serve-book:
	@test -f book/_build/html/index.html || { echo "no book yet: run make book first"; exit 1; }
	@echo "Serving the book at http://127.0.0.1:$${PORT:-8000}/ (Ctrl-C to stop)"
	cd book/_build/html && $(PY) -m http.server $${PORT:-8000} --bind 127.0.0.1

bench: $(STAMP)
	$(BIN)/loo-lessons bench

clean:
	rm -rf $(VENV) book/_build
