# The README's two commands, `make demo` and `make test`, work on a machine with only Python:
# each creates (or refreshes) the virtual environment .venv from pyproject.toml first.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
SUM    := $(shell cat pyproject.toml | cksum | cut -d' ' -f1)
# one stamp per kind of install: the demo needs wordvec alone (demo-zh jieba too), the tests
# the test extra
# (gensim, fasttext-numpy2, jieba, matplotlib, ruff), the benchmarks the dev extra
STAMP_DEMO := $(VENV)/.installed-demo-$(SUM)
STAMP_ZH   := $(VENV)/.installed-zh-$(SUM)
STAMP_TEST := $(VENV)/.installed-test-$(SUM)
STAMP_DEV  := $(VENV)/.installed-dev-$(SUM)
# demo.wv at the top of the checkout: the README's tour queries it there
DEMO   := demo
BENCH_CORPUS ?= ../shared/corpora/wiki2015-text8like.txt.gz
# PWORD2VEC=path/to/pWord2Vec adds Intel's pWord2Vec to the skip-gram benchmark (README: building it)
PWORD2VEC ?=
# FASTTEXT=path/to/fasttext (the CLI, built from fastText's source) adds it to the fastText
# benchmark, and the classifier benchmark
FASTTEXT ?=
# GLOVE=path/to/GloVe/build (Stanford's, after make) adds both GloVe pipelines side by side
GLOVE ?=
comma := ,
SG_TOOLS := wordvec,wordvec-pairs,gensim$(if $(PWORD2VEC),$(comma)pword2vec)

.PHONY: demo demo-zh test test-fast fuzz bench lint docs clean

$(VENV)/bin/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP_DEMO): pyproject.toml | $(VENV)/bin/python
	$(BIN)/python -m pip install --quiet -e .
	rm -f $(VENV)/.installed-demo-* && touch $@

$(STAMP_ZH): pyproject.toml | $(VENV)/bin/python
	$(BIN)/python -m pip install --quiet -e '.[zh]'
	rm -f $(VENV)/.installed-zh-* && touch $@

$(STAMP_TEST): pyproject.toml | $(VENV)/bin/python
	$(BIN)/python -m pip install --quiet -e '.[test]'
	rm -f $(VENV)/.installed-test-* && touch $@

$(STAMP_DEV): pyproject.toml | $(VENV)/bin/python
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	rm -f $(VENV)/.installed-dev-* && touch $@

demo: $(STAMP_DEMO)
	@mkdir -p out
	$(BIN)/wordvec train corpora/wiki-sample.txt.gz -o $(DEMO).wv --model sg --epochs 10 --min-count 5 --seed 1
	$(BIN)/wordvec neighbors $(DEMO).wv king france computer music war -k 8
	$(BIN)/wordvec neighbors $(DEMO).wv --analogy he his she -k 5

demo-zh: $(STAMP_ZH)
	@mkdir -p out
	$(BIN)/wordvec train corpora/zhwiki-sample.txt.gz -o out/demo-zh.wv --convert t2s --tokenizer jieba --min-count 3 --seed 1
	$(BIN)/wordvec neighbors out/demo-zh.wv 北京 音乐 -k 8
	$(BIN)/wordvec eval out/demo-zh.wv --lang zh

# one pytest worker a core; a module's tests run in one worker, in order (the help examples
# read what earlier ones wrote) and share its fixtures
PYTEST := $(BIN)/python -m pytest -q -n auto --dist loadfile

test: $(STAMP_TEST)
	$(PYTEST)

# the tests less those marked slow (real training runs on the bundled corpus)
test-fast: $(STAMP_TEST)
	$(PYTEST) -m "not slow"

# docs/cli.md, the command reference, from the commands themselves (tests/test_docs.py checks it)
docs: $(STAMP_DEMO)
	$(BIN)/python -m wordvec.cli.reference docs/cli.md

# 250 seeded mutations of each kind (truncation, byte flips, header flips, a field set to an
# extreme value): 1,000 per format; -s prints each format's counts of runs and faults
fuzz: $(STAMP_TEST)
	WORDVEC_FUZZ_CASES=250 $(BIN)/python -m pytest -q -s --timeout 3600 tests/test_fuzz.py

lint: $(STAMP_TEST)
	$(BIN)/ruff check wordvec tests
	$(BIN)/ruff format --check wordvec tests

bench: $(STAMP_DEV)
	$(BIN)/python tests/bench/bench_word2vec.py --corpus $(BENCH_CORPUS) --models sg --losses ns --threads 1,2 --tools $(SG_TOOLS) $(if $(PWORD2VEC),--pword2vec $(PWORD2VEC)) --out bench-results/word2vec-sg-ns
	$(BIN)/python tests/bench/bench_word2vec.py --corpus $(BENCH_CORPUS) --models cbow --losses ns --threads 1,2 --out bench-results/word2vec-cbow-ns
	$(BIN)/python tests/bench/bench_word2vec.py --corpus $(BENCH_CORPUS) --losses hs --threads 1 --out bench-results/word2vec-hs
	$(BIN)/python tests/bench/bench_word2vec.py --corpus $(BENCH_CORPUS) --softmax-scaling --out bench-results/softmax
	$(BIN)/python tests/bench/bench_fasttext.py --corpus $(BENCH_CORPUS) --threads 1,2 --tools wordvec,wordvec-pairs,fasttext$(if $(FASTTEXT),$(comma)fasttext-cli --fasttext $(FASTTEXT)) --out bench-results/fasttext
	$(BIN)/python tests/bench/bench_glove.py --corpus $(BENCH_CORPUS) --out bench-results/glove
	$(if $(GLOVE),$(BIN)/python tests/bench/bench_glove.py --corpus $(BENCH_CORPUS) --max-tokens 2000000 --stanford $(GLOVE) --x-max 100$(comma)10 --out bench-results/glove-stanford)
	$(if $(FASTTEXT),$(BIN)/python tests/bench/bench_supervised.py --fasttext $(FASTTEXT) --threads 1$(comma)2 --runs 3)
	$(BIN)/python tests/bench/bench_bpe.py --corpus $(BENCH_CORPUS) --vocab-size 32000 --threads 2 --rounds 3 --out bench-results/bpe
	$(BIN)/python tests/bench/bench_dask.py --source $(BENCH_CORPUS) --shards 8 --workers 2 --local-threads 2 --workdir bench-results/dask-work --out bench-results/dask

clean:
	rm -rf $(VENV) out build *.egg-info $(DEMO).wv
