"""The approximate index (wordvec.index): it finds what exact search finds (recall against
exact cosine on clustered vectors like real ones), scores it exactly, leaves a query's own
words out, is saved and mapped again, refuses other vectors and damaged files, and serves
``neighbors`` and gensim's ``AnnoyIndexer`` protocol."""

from __future__ import annotations

import sys

import numpy as np
import pytest
from click.testing import CliRunner

import wordvec
from wordvec.cli import main
from wordvec.errors import FormatError, WordvecError
from wordvec.index.approximate import NeighbourIndex
from wordvec.index.files import StaleIndex, default_path
from wordvec.index.settings import Settings


def clustered(n: int, dim: int = 32, codes: int = 12, seed: int = 0) -> np.ndarray:
    """Vectors shaped as word vectors are (a low intrinsic dimension plus noise), as the
    issue's benchmark makes them: Gaussian codes times a random matrix, plus noise, unit."""
    rng = np.random.default_rng(seed)
    rows = rng.standard_normal((n, codes)) @ rng.standard_normal((codes, dim))
    rows += 0.3 * rng.standard_normal((n, dim))
    return (rows / np.linalg.norm(rows, axis=1, keepdims=True)).astype(np.float32)


@pytest.fixture(scope="module")
def vectors() -> wordvec.Vectors:
    rows = clustered(12_000) * np.linspace(0.5, 3, 12_000, dtype=np.float32)[:, None]
    return wordvec.Vectors([f"w{i}" for i in range(len(rows))], rows)


@pytest.fixture(scope="module")
def index(vectors) -> NeighbourIndex:
    return NeighbourIndex.build(vectors, threads=2, quiet=True)


def exact_top(vectors: wordvec.Vectors, queries: np.ndarray, k: int) -> np.ndarray:
    unit = vectors.vectors / np.linalg.norm(vectors.vectors, axis=1, keepdims=True)
    scores = queries @ unit.T
    return np.argsort(-scores, axis=1)[:, :k]


def test_recall_against_exact_cosine_and_exact_scores(vectors, index):
    queries = clustered(12_200)[12_000:]  # the same codes' space, not in the index
    truth = exact_top(vectors, queries, 10)
    found = [index.nearest(q, 10) for q in queries]
    recall = np.mean([len({r for r, _ in f} & set(t)) / 10 for f, t in zip(found, truth)])
    assert recall >= 0.95
    rows, scores = zip(*found[0])
    assert list(scores) == sorted(scores, reverse=True)  # best first
    exact = vectors._cosines(queries[0], None)[list(rows)]
    np.testing.assert_allclose(scores, exact, rtol=1e-5)  # the vectors' cosines, not the graph's


def test_most_similar_through_the_index_leaves_the_query_out_and_agrees_with_exact(vectors, index):
    agree = 0
    for word in [f"w{i}" for i in range(0, 12_000, 600)]:
        approximate = vectors.most_similar(word, topn=5, index=index)
        exact = vectors.most_similar(word, topn=5)
        assert word not in [w for w, _ in approximate] and len(approximate) == 5
        agree += approximate[0] == pytest.approx(exact[0])
    assert agree >= 19  # top-1, with its exact score, on 19 of 20 words at least
    analogy = vectors.analogy("w1", "w2", "w3", k=4, index=index)
    assert {"w1", "w2", "w3"}.isdisjoint(w for w, _ in analogy)
    assert analogy[0][0] == vectors.analogy("w1", "w2", "w3", k=1)[0][0]
    with pytest.raises(ValueError, match="restrict_vocab"):
        vectors.most_similar("w1", topn=3, restrict_vocab=100, index=index)


def test_bad_queries_are_errors(vectors, index):
    with pytest.raises(ValueError, match="NaN"):
        index.nearest(np.full(vectors.dim, np.nan, dtype=np.float32), 3)
    with pytest.raises(ValueError, match="zeros"):
        index.nearest(np.zeros(vectors.dim), 3)
    with pytest.raises(ValueError, match="shape"):
        index.nearest(np.ones(vectors.dim + 1), 3)
    assert len(index.nearest(vectors.vectors[0], 10**9)) == len(vectors)  # all there are
    with pytest.raises(ValueError, match="expansion_search"):
        index.expansion_search = 0
    with pytest.raises(WordvecError, match="connectivity"):
        NeighbourIndex.build(vectors, Settings(connectivity=1))


def test_saved_index_is_mapped_and_answers_the_same(vectors, index, tmp_path):
    path = tmp_path / "v.index"
    index.save(path)
    opened = NeighbourIndex.open(path, vectors)
    for row in (0, 500, 11_999):
        assert opened.nearest(vectors.vectors[row], 10) == index.nearest(vectors.vectors[row], 10)


def test_an_index_of_other_vectors_is_refused(vectors, index, tmp_path):
    path = tmp_path / "v.index"
    index.save(path)
    fewer = wordvec.Vectors(vectors.words[:-1], vectors.vectors[:-1])
    with pytest.raises(StaleIndex, match="12,000 x 32 vectors, not v.wv"):
        NeighbourIndex.open(path, fewer, "v.wv")
    retrained = wordvec.Vectors(vectors.words, vectors.vectors * 1.5)
    with pytest.raises(StaleIndex, match="other vectors of the same shape"):
        NeighbourIndex.open(path, retrained)


@pytest.mark.parametrize("damage", ["truncated", "flipped", "not-an-index", "a-model"])
def test_a_damaged_index_is_an_error(vectors, index, tmp_path, damage):
    path = tmp_path / "v.index"
    index.save(path)
    data = bytearray(path.read_bytes())
    if damage == "truncated":
        data = data[: len(data) // 2]
    elif damage == "flipped":  # in the graph, past the header: the checksum sees it
        data[len(data) // 2] ^= 0x10
    elif damage == "not-an-index":
        data = b"king 0.1 0.2\n" * 10
    else:
        wordvec.save_vectors(vectors, tmp_path / "m.wv")
        data = (tmp_path / "m.wv").read_bytes()
    path.write_bytes(bytes(data))
    message = {"truncated": "truncated|corrupt", "flipped": "checksum",
               "not-an-index": "not a wordvec index",
               "a-model": "not a wordvec index"}[damage]  # fmt: skip
    with pytest.raises(FormatError, match=message):
        NeighbourIndex.open(path, vectors)


def test_without_the_library_the_error_says_how_to_install_it(vectors, monkeypatch):
    monkeypatch.setitem(sys.modules, "faiss", None)  # import faiss: ImportError
    with pytest.raises(WordvecError, match=r"pip install 'wordvec\[index\]'"):
        NeighbourIndex.build(vectors, quiet=True)


def test_index_and_neighbors_commands(vectors, tmp_path):
    model = tmp_path / "v.wv"
    wordvec.save_vectors(vectors, model)
    runner = CliRunner()
    built = runner.invoke(main, ["index", str(model), "-q"])
    assert built.exit_code == 0, built.output
    assert default_path(model).is_file() and "indexed 12,000 vectors of 32 dims" in built.output
    words = [f"w{i}" for i in range(7, 12_000, 1_500)]
    found = runner.invoke(main, ["neighbors", str(model), *words, "-k", "3"])
    exact = runner.invoke(main, ["neighbors", str(model), *words, "-k", "3", "--exact"])
    assert found.exit_code == 0 and exact.exit_code == 0, found.output + exact.output
    header, *answers = found.stdout.splitlines()
    assert header.startswith(f"search: approximate, through {default_path(model)}: HNSW graph")
    firsts = [line for line in answers if line.lstrip().startswith("1 ")]
    assert firsts == [line for line in exact.stdout.splitlines() if line.lstrip().startswith("1 ")]
    assert len(firsts) == len(words)
    named = runner.invoke(main, ["neighbors", str(model), "w7", "--index", str(default_path(model)),
                                 "--ef", "200", "--analogy", "w1", "w2", "w3"])  # fmt: skip
    assert named.exit_code == 0 and "ef 200" in named.stdout.splitlines()[0]


@pytest.mark.parametrize(
    "arguments, message",
    [
        (["--exact", "--index", "v.wv.index"], "--index and --exact do not go together"),
        (["--exact", "--ef", "10"], "--ef sets an index's search"),
        (["-k", "12000"], "12000 neighbours asked of 12,000 words"),
        (["--index", "v.wv"], "not a wordvec index"),
    ],
)
def test_neighbors_index_options_that_do_not_apply(vectors, tmp_path, monkeypatch, arguments,
                                                   message):  # fmt: skip
    monkeypatch.chdir(tmp_path)
    wordvec.save_vectors(vectors, tmp_path / "v.wv")
    result = CliRunner().invoke(main, ["neighbors", "v.wv", "w1", *arguments])
    assert result.exit_code in (1, 2) and message in result.output
    assert "Traceback" not in result.output


def test_gensims_annoy_indexer_protocol(tmp_path):
    from wordvec.gensim import KeyedVectors, Word2Vec
    from wordvec.gensim.similarities.annoy import AnnoyIndexer

    sentences = [["cute", "cat", "say", "meow"], ["cute", "dog", "say", "woof"]] * 20
    model = Word2Vec(sentences, min_count=1, seed=1, vector_size=16)
    indexer = AnnoyIndexer(model, 2)
    found = model.wv.most_similar("cat", topn=3, indexer=indexer)
    assert found[0] == ("cat", pytest.approx(1.0))  # as gensim's: the query word comes first
    exact = model.wv.most_similar("cat", topn=2)
    assert [w for w, _ in found[1:]] == [w for w, _ in exact]
    assert [s for _, s in found[1:]] == pytest.approx([s for _, s in exact], rel=1e-5)
    indexer.save(tmp_path / "m.index")
    loaded = AnnoyIndexer()
    loaded.load(tmp_path / "m.index")
    with pytest.raises(ValueError, match=r"indexer\.model = model"):
        model.wv.most_similar("cat", topn=3, indexer=loaded)
    loaded.model = model
    assert model.wv.most_similar("cat", topn=3, indexer=loaded) == found
    assert loaded.labels == model.wv.index_to_key
    other = KeyedVectors(16)
    other.add_vectors(["a", "b", "c"], np.eye(3, 16, dtype=np.float32))
    loaded = AnnoyIndexer()
    loaded.load(tmp_path / "m.index")
    loaded.model = other
    with pytest.raises(StaleIndex):
        other.most_similar("a", topn=2, indexer=loaded)
    with pytest.raises(FileNotFoundError):
        AnnoyIndexer().load(tmp_path / "missing.index")
    with pytest.raises(ValueError, match="Only a Word2Vec"):
        AnnoyIndexer("not a model", 10)


def _build_in_child(vectors, answers) -> None:
    found = NeighbourIndex.build(vectors, threads=2, quiet=True).nearest(vectors.vectors[0], 1)
    answers.put(found[0][0])


def test_a_forked_child_of_a_process_that_built_an_index_builds_one_too(vectors, index):
    """gensim's annoy tutorial builds an indexer in a multiprocessing child of a process that
    had built one: GNU OpenMP's threads do not survive the fork, and the child's parallel
    build waited on them forever. A forked child builds on one thread."""
    import multiprocessing

    context = multiprocessing.get_context("fork")
    answers = context.Queue()
    child = context.Process(target=_build_in_child, args=(vectors, answers))
    child.start()
    child.join(60)
    if child.is_alive():
        child.kill()
    assert child.exitcode == 0 and answers.get(timeout=1) == 0
