"""``wordvec serve`` under load: neighbour requests from concurrent clients on loopback, the
serve issue's figures (4,000 requests, k=10, 32 clients: all answered, requests/s, p99).

    .venv/bin/python tests/bench/bench_serve.py [--model M.wv] [--requests 4000]
        [--clients 32] [--repeats 3] [--big BIG.bin.gz] [--big-requests 1000]
        [--dir /tmp/servebench]

The model, unless ``--model`` names one: skip-gram on the shared 5 MB English sample
(``../shared/corpora/wiki2015-sample-5MB.txt``, dim 100, 5 epochs, ``--seed 1``), trained
once into ``--dir``. The server is ``wordvec serve MODEL --port 0`` (every core: 2 here); the
load is another process (``--client``): ``--clients`` aiohttp sessions on one event loop,
each sending its share of ``--requests`` GET ``/api/neighbors?word=W&k=10`` one after another,
W cycling through the model's 1,000 most frequent words; each request's latency is
``perf_counter`` from send to the whole JSON body read. A run reports requests answered 200,
others, requests/s (all of them over the wall time of the whole load), and the latency
percentiles. ``--repeats`` runs in a row against one server after a warm-up of 200 requests;
the table gives each figure's median (min-max). The load generator shares the 2 cores with
the server: the figures are the server's throughput with its client beside it.

``--big`` adds a 1M-word file (e.g. tests/bench/bench_index.py's ``big-1000000x100.bin.gz``)
served twice, ``--exact`` and through the index beside it (``wordvec index`` it first),
with ``--big-requests`` requests each, words sampled from its vocabulary.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from process import cpu_model

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT.parent / "shared" / "corpora" / "wiki2015-sample-5MB.txt"


def start(model: Path, *extra: str) -> tuple[subprocess.Popen, str]:
    process = subprocess.Popen([sys.executable, "-m", "wordvec", "serve", str(model), "--port",
                                "0", *extra], stderr=subprocess.PIPE, text=True)  # fmt: skip
    line = process.stderr.readline()
    found = re.search(r"serving at (http://\S+)/ ", line)
    if not found:
        process.kill()
        raise SystemExit(f"the server did not start: {line}{process.stderr.read()}")
    return process, found.group(1)


async def load(url: str, words: list[str], requests: int, clients: int) -> dict:
    import aiohttp

    latencies: list[float] = []
    failed = 0

    async def client(session: aiohttp.ClientSession, number: int) -> None:
        nonlocal failed
        for i in range(number, requests, clients):
            sent = time.perf_counter()
            query = {"word": words[i % len(words)], "k": "10"}
            async with session.get(f"{url}/api/neighbors", params=query) as answer:
                body = await answer.read()
                ok = answer.status == 200 and len(json.loads(body)["neighbors"]) == 10
            latencies.append(time.perf_counter() - sent)
            failed += not ok

    connector = aiohttp.TCPConnector(limit=clients)
    async with aiohttp.ClientSession(connector=connector, trust_env=False) as session:
        started = time.perf_counter()
        await asyncio.gather(*(client(session, n) for n in range(clients)))
        wall = time.perf_counter() - started
    latencies.sort()

    def at(share: float) -> float:
        return 1000 * latencies[min(len(latencies) - 1, int(share * len(latencies)))]

    figures = {"ok": len(latencies) - failed, "failed": failed, "rps": len(latencies) / wall}
    return {**figures, "p50": at(0.5), "p90": at(0.9), "p99": at(0.99), "max": 1000 * latencies[-1]}


def run_client(url: str, words: list[str], requests: int, clients: int) -> dict:
    command = [sys.executable, __file__, "--client", url, "--requests", str(requests),
               "--clients", str(clients)]  # fmt: skip
    out = subprocess.run(command, input="\n".join(words), capture_output=True, text=True,
                         check=True).stdout  # fmt: skip
    return json.loads(out)


def measure(model: Path, words: list[str], args, requests: int, *extra: str) -> list[dict]:
    process, url = start(model, *extra)
    try:
        run_client(url, words, 200, args.clients)  # warm-up
        return [run_client(url, words, requests, args.clients) for _ in range(args.repeats)]
    finally:
        process.terminate()
        process.wait()


def summary(name: str, runs: list[dict]) -> str:
    def shown(key: str, form: str) -> str:
        values = [run[key] for run in runs]
        return f"{statistics.median(values):{form}} ({min(values):{form}}-{max(values):{form}})"

    latency = ", ".join(f"{key} {shown(key, '.1f')}" for key in ("p50", "p90", "p99", "max"))
    return (f"{name}: {shown('ok', ',.0f')} answered, {shown('failed', '.0f')} failed; "
            f"{shown('rps', ',.0f')} requests/s; latency ms {latency}")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--model", type=Path)
    parser.add_argument("--requests", type=int, default=4000)
    parser.add_argument("--clients", type=int, default=32)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--big", type=Path)
    parser.add_argument("--big-requests", type=int, default=1000)
    parser.add_argument("--dir", type=Path, default=Path("/tmp/servebench"))
    parser.add_argument("--client")
    args = parser.parse_args()
    if args.client:
        words = sys.stdin.read().split("\n")
        print(json.dumps(asyncio.run(load(args.client, words, args.requests, args.clients))))
        return
    import wordvec

    args.dir.mkdir(parents=True, exist_ok=True)
    model = args.model or args.dir / "sample.wv"
    if not model.exists():
        wordvec.train(SAMPLE, model="sg", dim=100, epochs=5, seed=1, quiet=True).save(model)
    words = wordvec.load_vectors(model).words[:1000]
    print(f"CPU: {cpu_model()}; {args.requests} requests of k=10 from {args.clients} clients")
    print(summary(f"{model.name} (exact)", measure(model, words, args, args.requests)))
    if args.big:
        import numpy as np

        big = wordvec.load_vectors(args.big)
        sampled = [big.words[i] for i in np.random.default_rng(0).choice(len(big), 1000)]
        del big
        for extra in (["--exact"], []):
            name = f"{args.big.name} ({'exact' if extra else 'index'})"
            print(summary(name, measure(args.big, sampled, args, args.big_requests, *extra)))


if __name__ == "__main__":
    main()
