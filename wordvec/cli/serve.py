"""``wordvec serve``: a JSON API and an explorer page over models, on loopback by default."""

from __future__ import annotations

from pathlib import Path

import click

from wordvec.cli.parsing import Command

SERVE_EXAMPLES = """\b
Examples:
  wordvec serve model.wv                       # http://127.0.0.1:8000/ : the explorer page
  wordvec serve model.wv crawl-300d-2M.vec --port 8080      # two models, side by side
  wordvec serve clf.wv docs.wv --host 0.0.0.0  # other machines too: mind who can reach it

\b
Then: curl 'http://127.0.0.1:8000/api/neighbors?word=paris&k=5'. MODEL is any file wordvec
reads (vectors in any format, compressed; wordvec models, whose classifiers answer
/api/predict and doc2vec models /api/infer; fastText .bin). An index beside it (wordvec
index MODEL) is searched through. The API is described at /api/openapi.json and in
docs/serve.md. The server only reads; it binds 127.0.0.1 unless --host says otherwise.
Needs pip install 'wordvec[serve]' (Starlette, uvicorn).
"""


@click.command(cls=Command, epilog=SERVE_EXAMPLES)
@click.argument("models", metavar="MODEL...", nargs=-1, required=True,
                type=click.Path(path_type=Path))  # fmt: skip
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True)
@click.option("--host", default="127.0.0.1", show_default=True,
              help="The address to listen on (0.0.0.0: every interface).")  # fmt: skip
@click.option("--exact", is_flag=True, help="Search every word, even with an index beside a MODEL.")
@click.option("--max-k", type=click.IntRange(1), default=1000, show_default=True,
              help="Most neighbours or labels one request may ask.")  # fmt: skip
@click.option("--max-words", type=click.IntRange(1), default=100, show_default=True,
              help="Most words in one request's list.")  # fmt: skip
@click.option("--max-text", type=click.IntRange(1), default=10_000, show_default=True,
              help="Most characters in one parameter (a text to classify).")  # fmt: skip
@click.option("--max-body", type=click.IntRange(1), default=1 << 20, show_default=True,
              help="Most bytes in a POST body.")  # fmt: skip
@click.option("--threads", type=click.IntRange(1),
              help="Answers computed at once [every core].")  # fmt: skip
def serve(
    models: tuple[Path, ...], port: int, host: str, exact: bool, max_k: int, max_words: int,
    max_text: int, max_body: int, threads: int | None,
) -> None:  # fmt: skip
    """Serve MODELs: a JSON API under /api/ and an explorer page at /."""
    from wordvec.runtime.parallel import available_cores
    from wordvec.serve.app import Limits, create_app, run
    from wordvec.serve.served import loaded

    app = create_app(
        loaded(list(models), use_index=not exact),
        Limits(max_k, max_words, max_text, max_body, threads or available_cores()),
    )
    run(app, host, port)
