"""The HTTP face of ``wordvec serve``: a Starlette application (run by uvicorn) with the JSON
API under ``/api/`` (:data:`ROUTES`; described by ``/api/openapi.json``) and the explorer page
at ``/``. It only reads: no request writes a file.

Each answer is computed on a worker thread (at most ``Limits.threads`` at once), never on the
event loop: NumPy's products release the GIL, so concurrent clients use every core while the
loop goes on accepting. Every failure is a JSON object ``{"error": ...}`` with a 4xx status
(5xx only for a bug, without its traceback); the server goes on.
"""

from __future__ import annotations

import json
import logging
import math
from collections.abc import Callable
from importlib import resources
from typing import Any, NamedTuple

from wordvec.errors import UnknownWord, WordvecError
from wordvec.serve.openapi import openapi
from wordvec.serve.served import BadRequest, Served

logger = logging.getLogger("wordvec.serve")


class Limits(NamedTuple):
    """What one request may ask: ``k`` neighbours, ``words`` terms, ``text`` characters,
    ``body`` bytes; ``threads`` answers computed at once."""

    k: int = 1000
    words: int = 100
    text: int = 10_000
    body: int = 1 << 20
    threads: int = 2


class Request(NamedTuple):
    """A request's parameters, from its query string or its JSON body, checked on access."""

    params: dict[str, list[str]]
    limits: Limits

    def text(self, name: str, default: str | None = None) -> str:
        values = self.params.get(name)
        if not values:
            if default is None:
                raise BadRequest(400, f"missing parameter {name!r}")
            return default
        value = values[-1]
        if len(value) > self.limits.text:
            raise BadRequest(414, f"{name!r} is {len(value):,} characters; the limit is "
                             f"{self.limits.text:,}")  # fmt: skip
        return value

    def words(self, name: str, required: bool = True) -> list[str]:
        """A list of words: the parameter repeated, or comma-separated (or both)."""
        words = [w.strip() for v in self.params.get(name, []) for w in v.split(",") if w.strip()]
        if required and not words:
            raise BadRequest(400, f"missing parameter {name!r} (one or more words)")
        if len(words) > self.limits.words:
            raise BadRequest(414, f"{len(words)} words in {name!r}; the limit is "
                             f"{self.limits.words}")  # fmt: skip
        for word in words:
            if len(word) > 200:
                raise BadRequest(414, f"a word of {len(word):,} characters in {name!r}")
        return words

    def count(self, name: str, default: int, limit: int) -> int:
        raw = self.text(name, str(default))
        try:
            value = int(raw)
        except ValueError:
            raise BadRequest(400, f"{name!r} must be a whole number, not {raw[:40]!r}") from None
        if not 1 <= value <= limit:
            raise BadRequest(400, f"{name!r} must be from 1 to {limit}, not {value}")
        return value


Handler = Callable[[Served, Request], dict]


def _neighbors(model: Served, q: Request) -> dict:
    positive = q.words("word", required=False) + q.words("positive", required=False)
    negative = q.words("negative", required=False)
    if not positive + negative:
        raise BadRequest(400, "missing parameter 'word' (or 'positive'/'negative' lists)")
    return model.neighbors(positive, negative, q.count("k", 10, _k_limit(model, q)))


def _analogy(model: Served, q: Request) -> dict:
    positive, negative = q.words("positive"), q.words("negative")
    return model.neighbors(positive, negative, q.count("k", 10, _k_limit(model, q)))


def _projection(model: Served, q: Request) -> dict:
    dims = q.count("dims", 2, 3)
    words = q.words("words", required=False)
    if not words:  # a word's neighbourhood: it and its k neighbours
        word = q.words("word")[:1]
        found = model.neighbors(word, [], q.count("k", 15, min(200, _k_limit(model, q))))
        words = word + [n["word"] for n in found["neighbors"]]
    return model.projection(list(dict.fromkeys(words)), max(dims, 2))


def _k_limit(model: Served, q: Request) -> int:
    return max(1, min(q.limits.k, len(model.vectors) - 1))


ROUTES: dict[str, Handler] = {
    "neighbors": _neighbors,
    "analogy": _analogy,
    "similarity": lambda m, q: m.similarity(q.text("a"), q.text("b")),
    "n_similarity": lambda m, q: m.n_similarity(q.words("a"), q.words("b")),
    "vector": lambda m, q: m.vector(q.text("word")),
    "complete": lambda m, q: m.complete(q.text("prefix"), q.count("limit", 10, 100)),
    "projection": _projection,
    "predict": lambda m, q: m.predict(q.text("text"), q.count("k", 1, q.limits.k)),
    "infer": lambda m, q: m.infer(q.text("text"), q.count("k", 10, q.limits.k)),
}
"""``/api/NAME``: what answers it (with the model named by ``model``, else the first)."""


DEFAULT_LIMITS = Limits()
_DRAINED = 16
"""A body over the limit is read (and dropped) up to this many times the limit before the
413: a client still sending when the answer came would see its connection reset instead."""


def create_app(models: dict[str, Served], limits: Limits = DEFAULT_LIMITS) -> Any:
    """The Starlette application serving ``models`` (by name, in the order given)."""
    import anyio
    from starlette.applications import Starlette
    from starlette.exceptions import HTTPException
    from starlette.responses import HTMLResponse, JSONResponse
    from starlette.routing import Route

    limiter = anyio.CapacityLimiter(limits.threads)
    page = resources.files("wordvec.serve").joinpath("explorer.html").read_text("utf-8")
    spec = openapi(limits)

    def error(status: int, message: str, **extra: Any) -> JSONResponse:
        return JSONResponse({"error": message, **extra}, status_code=status)

    async def api(request) -> JSONResponse:
        handler = ROUTES.get(request.path_params["name"])
        if handler is None:
            return error(404, f"no such call: /api/{request.path_params['name']}",
                         calls=sorted(ROUTES))  # fmt: skip
        try:
            params = await _params(request, limits)
            q = Request(params, limits)
            name = q.text("model", next(iter(models)))
            if name not in models:
                raise BadRequest(404, f"no model {name!r}", models=list(models))
            answer = await anyio.to_thread.run_sync(handler, models[name], q, limiter=limiter)
        except BadRequest as exc:
            return error(exc.status, str(exc), **exc.extra)
        except UnknownWord as exc:
            return error(404, str(exc))
        except (WordvecError, ValueError, ZeroDivisionError) as exc:
            return error(400, str(exc))
        except Exception:  # a bug: logged with its traceback here, never sent
            logger.exception("request %s failed", request.url.path)
            return error(500, "internal error (logged by the server)")
        return JSONResponse(_finite(answer))

    async def listing(request) -> JSONResponse:
        return JSONResponse({"models": [m.describe() for m in models.values()],
                             "limits": limits._asdict()})  # fmt: skip

    async def not_found(request, exc: HTTPException) -> JSONResponse:
        return error(exc.status_code, f"{exc.detail}: {request.url.path[:200]}")

    routes = [
        Route("/", lambda request: HTMLResponse(page)),
        Route("/api/models", listing),
        Route("/api/openapi.json", lambda request: JSONResponse(spec)),
        Route("/api/{name}", api, methods=["GET", "POST"]),
    ]
    return Starlette(routes=routes, exception_handlers={HTTPException: not_found})


async def _params(request, limits: Limits) -> dict[str, list[str]]:
    """The query string's parameters, and a POST's JSON object's (a list for a list)."""
    if len(request.url.query) > limits.text * 2:
        raise BadRequest(414, f"the query string is {len(request.url.query):,} characters")
    params: dict[str, list[str]] = {}
    for key, value in request.query_params.multi_items():
        params.setdefault(key, []).append(value)
    if request.method == "POST":
        body, length = bytearray(), 0
        async for chunk in request.stream():
            length += len(chunk)
            if length <= limits.body:
                body += chunk
            elif length > _DRAINED * limits.body:  # not read to its end: the connection closes
                break
        if length > limits.body:  # answered once read, so that the client reads the answer
            raise BadRequest(413, f"the body is over the limit of {limits.body:,} bytes")
        try:
            fields = json.loads(body) if body else {}
        except (json.JSONDecodeError, UnicodeDecodeError):
            raise BadRequest(400, "the body is not JSON") from None
        if not isinstance(fields, dict):
            raise BadRequest(400, "the body must be a JSON object")
        for key, value in fields.items():
            values = value if isinstance(value, list) else [value]
            if not all(isinstance(v, (str, int)) and not isinstance(v, bool) for v in values):
                raise BadRequest(400, f"{key!r} must be a string, a number or a list of them")
            params.setdefault(key, []).extend(str(v) for v in values)
    return params


def _finite(answer: Any) -> Any:
    """``answer`` with any non-finite float as None (JSON has no NaN)."""
    if isinstance(answer, float):
        return answer if math.isfinite(answer) else None
    if isinstance(answer, dict):
        return {key: _finite(value) for key, value in answer.items()}
    if isinstance(answer, list):
        return [_finite(value) for value in answer]
    return answer


def run(app: Any, host: str, port: int) -> None:
    """Serve ``app`` at ``host:port`` (0: a free port) until interrupted, saying where."""
    import socket

    import click
    import uvicorn
    from threadpoolctl import threadpool_limits

    # Requests run side by side on worker threads, each product on one core: BLAS's own
    # threads would fight them (a 12k x 100 search took 35x longer on a busy 2-core machine).
    threadpool_limits(1, user_api="blas")
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        raise WordvecError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    sock.listen(2048)  # from now on connections wait in the backlog, not refused
    port = sock.getsockname()[1]
    config = uvicorn.Config(app, log_level="warning", access_log=False)
    shown = f"[{host}]" if ":" in host else host
    click.echo(f"serving at http://{shown}:{port}/ (the API under /api/; Ctrl-C stops)", err=True)
    uvicorn.Server(config).run(sockets=[sock])
