"""``wordvec eval``: score vectors on word-similarity and analogy sets."""

from __future__ import annotations

from pathlib import Path

import click

from wordvec.cli.parsing import Command
from wordvec.errors import WordvecError
from wordvec.query import ANALOGY_VOCABULARY

EVAL_EXAMPLES = """\b
Examples:
  wordvec eval model.wv                          # WS-353 and Google analogies (bundled)
  wordvec eval vectors.bin --lang zh             # wordsim-240/297 and CA8
  wordvec eval model.wv --sections                 # and every analogy section
  wordvec eval ft.wv --oov skip                  # fastText without its subword vectors
  wordvec eval model.wv --similarity my-pairs.txt --analogy my-questions.txt --json

\b
Similarity files hold 'word1 word2 score' lines; analogy files 'a b c d' lines under ': section'
lines (tabs or spaces, CRLF, '#' comments). Similarity is Spearman's rho over the pairs whose
words are both known (the rest are counted, not guessed); a fastText model also scores words
outside its vocabulary from their n-grams, unless --oov skip. Analogies are answered among the
--restrict most frequent words, a, b and c excluded, by 3CosAdd (b - a + c) and 3CosMul; a
question is covered when its four words are all among them. Words are lowercased unless
--case-sensitive. Google's gram* sections are reported as syntactic, the rest as semantic.
"""


@click.command("eval", cls=Command, epilog=EVAL_EXAMPLES)
@click.argument("vectors_file", metavar="VECTORS", type=click.Path(path_type=Path))
@click.option(
    "--similarity",
    "similarity_files",
    multiple=True,
    type=click.Path(dir_okay=False, path_type=Path),
    help="Word-pair similarity file (repeatable; '-': standard input). [default: bundled sets]",
)
@click.option(
    "--analogy",
    "analogy_files",
    multiple=True,
    type=click.Path(dir_okay=False, path_type=Path),
    help="Analogy questions file (repeatable; '-': standard input, as word2vec's "
    "compute-accuracy reads them). [default: bundled sets]",
)
@click.option(
    "--lang",
    type=click.Choice(["en", "zh"]),
    default="en",
    show_default=True,
    help="Which bundled sets are the defaults.",
)
@click.option(
    "--restrict",
    type=click.IntRange(min=1),
    default=ANALOGY_VOCABULARY,
    show_default=True,
    help="Search analogy answers among this many most frequent words.",
)
@click.option(
    "--oov",
    type=click.Choice(["subwords", "skip"]),
    default="subwords",
    show_default=True,
    help="Similarity pairs with a word outside the vocabulary: scored with subword vectors "
    "(fastText models, as fastText's own evaluation), or left out.",
)
@click.option("--case-sensitive", is_flag=True, help="Do not lowercase the test words.")
@click.option("--sections", is_flag=True, help="Show the accuracy of every analogy section.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")
def evaluate(
    vectors_file: Path,
    similarity_files: tuple[Path, ...],
    analogy_files: tuple[Path, ...],
    lang: str,
    restrict: int,
    oov: str,
    case_sensitive: bool,
    sections: bool,
    as_json: bool,
) -> None:
    """Score VECTORS on word similarity and analogy benchmarks."""
    from wordvec.formats import load_vectors
    from wordvec.query.evalsets import default_sets
    from wordvec.query.report import evaluation_report, format_report, report_json

    if not similarity_files and not analogy_files:
        similarity_files = tuple(default_sets(lang, "similarity"))
        analogy_files = tuple(default_sets(lang, "analogy"))
    files = (*similarity_files, *analogy_files)
    if files.count(Path("-")) > 1:
        raise click.UsageError("standard input ('-') can be read once: give it to one option")
    for path in files:
        if str(path) != "-" and not path.is_file():
            raise WordvecError(f"evaluation file not found: {path}")
    vectors = load_vectors(vectors_file)
    report = evaluation_report(
        vectors,
        similarity_files,
        analogy_files,
        restrict=restrict,
        lowercase=not case_sensitive,
        oov=oov,
    )
    if as_json:
        click.echo(report_json(report))
    else:
        click.echo(format_report(report, sections=sections))
