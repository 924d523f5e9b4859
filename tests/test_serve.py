"""``wordvec serve`` as its users meet it: started from the command line on loopback, its
JSON answers the same as the Python API's, bad requests answered 4xx with JSON (and the
server alive after each), a bounded load of concurrent clients all answered, and the explorer
page driven in a real browser (Debian's chromium, through Selenium)."""

from __future__ import annotations

import asyncio
import json
import os
import re
import shutil
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import numpy as np
import pytest

import wordvec

from .conftest import CORPORA

pytest.importorskip("starlette", reason="pip install 'wordvec[serve]' to test wordvec serve")


_DIRECT = urllib.request.build_opener(urllib.request.ProxyHandler({}))
"""Requests to loopback, never through a proxy that the environment names."""


class Server:
    """A ``wordvec serve`` process on a free loopback port."""

    def __init__(self, *arguments: str):
        self.process = subprocess.Popen(
            [sys.executable, "-m", "wordvec", "serve", *arguments, "--port", "0"],
            stderr=subprocess.PIPE, text=True,
        )  # fmt: skip
        line = self.process.stderr.readline()
        found = re.search(r"serving at (http://[^/]+)/", line)
        if not found:
            self.process.kill()
            raise AssertionError(f"no address: {line}{self.process.stderr.read()}")
        self.url = found.group(1)

    def get(self, path: str, data: bytes | None = None, method: str | None = None):
        """(status, the JSON answer) of a request."""
        request = urllib.request.Request(self.url + path, data=data, method=method)
        try:
            with _DIRECT.open(request, timeout=30) as response:
                return response.status, json.loads(response.read())
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read())

    def close(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=10)


@pytest.fixture(scope="module")
def models(tmp_path_factory, sample_model) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("served")
    import gzip

    cooking = folder / "cooking.train"
    lines = gzip.decompress((CORPORA / "cooking.train.gz").read_bytes()).decode().splitlines()
    cooking.write_text("\n".join(lines[:3000]) + "\n")
    wordvec.train(cooking, model="supervised", epochs=5, alpha=0.5, threads=1, quiet=True).save(
        folder / "clf.wv"
    )
    questions = folder / "questions.txt"
    questions.write_text("\n".join(re.sub(r"__label__\S+ ", "", x) for x in lines[:800]) + "\n")
    wordvec.train(questions, model="doc2vec", epochs=5, threads=1, min_count=2, quiet=True).save(
        folder / "docs.wv"
    )
    return {"sample": sample_model, "clf": folder / "clf.wv", "docs": folder / "docs.wv"}


@pytest.fixture(scope="module")
def server(models):
    served = Server(str(models["sample"]), str(models["clf"]), str(models["docs"]))
    yield served
    served.close()


def test_answers_are_the_python_apis(server, models):
    vectors = wordvec.load_vectors(models["sample"])
    status, answer = server.get("/api/neighbors?word=city&k=5")
    assert status == 200 and answer["search"] == "exact"
    assert [(n["word"], n["similarity"]) for n in answer["neighbors"]] == vectors.most_similar(
        "city", topn=5
    )
    _, answer = server.get("/api/neighbors?positive=king,woman&negative=man&k=3")
    assert [n["word"] for n in answer["neighbors"]] == [
        w for w, _ in vectors.most_similar(["king", "woman"], ["man"], topn=3)
    ]
    _, answer = server.get("/api/analogy?positive=king,woman&negative=man&k=3")
    assert [n["word"] for n in answer["neighbors"]] == [
        w for w, _ in vectors.analogy("man", "king", "woman", k=3)
    ]
    _, answer = server.get("/api/similarity?a=city&b=town")
    assert answer["similarity"] == vectors.similarity("city", "town")
    _, answer = server.get("/api/n_similarity?a=city,town&b=king")
    assert answer["similarity"] == pytest.approx(vectors.n_similarity(["city", "town"], ["king"]))
    _, answer = server.get("/api/vector?word=city")
    assert answer["in_vocabulary"] and np.allclose(answer["vector"], vectors["city"])
    _, answer = server.get("/api/complete?prefix=cit&limit=3")
    assert answer["words"] and all(w.startswith("cit") for w in answer["words"])
    _, answer = server.get("/api/projection?word=city&k=5&dims=3")
    assert len(answer["points"]) == 6 and len(answer["points"][0]["coordinates"]) == 3
    classifier = wordvec.load_classifier(models["clf"])
    text = "how long should i boil an egg"
    status, answer = server.get(f"/api/predict?model=clf.wv&k=2&text={text.replace(' ', '+')}")
    assert status == 200
    found = [(x["label"], x["probability"]) for x in answer["labels"]]
    assert found == classifier.predict(text, k=2)
    body = json.dumps({"model": "docs.wv", "text": "how to boil eggs", "k": 3}).encode()
    status, answer = server.get("/api/infer", data=body)
    assert status == 200 and len(answer["documents"]) == 3 and len(answer["vector"]) == 100
    _, listing = server.get("/api/models")
    assert [m["kind"] for m in listing["models"]] == ["vectors", "classifier", "doc2vec"]
    status, spec = server.get("/api/openapi.json")
    assert status == 200 and "/api/neighbors" in spec["paths"]


BAD = [
    ("/api/neighbors?word=cityy", 404, "not in"),  # unknown word: with the closest
    ("/api/neighbors?word=city&k=0", 400, "'k' must be from 1"),
    ("/api/neighbors?word=city&k=ten", 400, "whole number"),
    ("/api/neighbors?word=city&k=100000000", 400, "'k' must be from 1"),
    ("/api/neighbors", 400, "missing parameter 'word'"),
    ("/api/similarity?a=city", 400, "missing parameter 'b'"),
    ("/api/neighbors?word=" + ",".join(["city"] * 500), 414, "the limit is 100"),
    ("/api/predict?model=clf.wv&text=" + "a" * 30_000, 414, "characters"),
    ("/api/neighbors?model=nope&word=city", 404, "no model 'nope'"),
    ("/api/predict?text=hello", 400, "not a classifier"),
    ("/api/unknown", 404, "no such call"),
    ("/no/such/page", 404, "Not Found"),
    ("/api/../../etc/passwd", 404, "Not Found"),
    ("/%2e%2e/%2e%2e/etc/passwd", 404, "Not Found"),
]


@pytest.mark.parametrize("path, status, message", BAD)
def test_bad_requests_get_json_errors_and_the_server_lives(server, path, status, message):
    got, answer = server.get(path)
    assert got == status and message in answer["error"], answer
    if "cityy" in path:
        assert "city" in answer["closest"]
    assert server.get("/api/models")[0] == 200


@pytest.mark.parametrize(
    "body, status, message",
    [
        (b"{not json", 400, "not JSON"),
        (b"[1, 2]", 400, "JSON object"),
        (json.dumps({"word": {"a": 1}}).encode(), 400, "must be a string"),
        (b"x" * (2 << 20), 413, "over the limit"),
    ],
)
def test_bad_bodies(server, body, status, message):
    got, answer = server.get("/api/neighbors", data=body)
    assert got == status and message in answer["error"], answer
    assert server.get("/api/models")[0] == 200
    got, answer = server.get("/api/models", data=b"{}", method="DELETE")
    assert got == 405 and "Method Not Allowed" in answer["error"]


def test_it_listens_on_loopback_unless_told(server):
    host, port = server.url.removeprefix("http://").rsplit(":", 1)
    assert host == "127.0.0.1"
    listening = Path("/proc/net/tcp").read_text().splitlines()[1:]
    local = {row.split()[1] for row in listening if row.split()[3] == "0A"}  # LISTEN
    assert f"0100007F:{int(port):04X}" in local


def test_concurrent_clients_are_all_answered(server):
    """A bounded load on loopback: 600 requests from 16 clients, every one answered right
    (the rate and latency are measured in tests/bench/bench_serve.py)."""
    aiohttp = pytest.importorskip("aiohttp")
    words = ["city", "king", "music", "war", "france", "river"]

    async def client(session, number, answers):
        for i in range(number, 600, 16):
            word = words[i % len(words)]
            async with session.get(f"{server.url}/api/neighbors?word={word}&k=10") as response:
                answers.append((word, response.status, (await response.json())["neighbors"]))

    async def load():
        answers = []
        async with aiohttp.ClientSession() as session:
            await asyncio.gather(*(client(session, n, answers) for n in range(16)))
        return answers

    answers = asyncio.run(load())
    assert len(answers) == 600 and all(status == 200 for _, status, _ in answers)
    first = {}
    for word, _, found in answers:
        assert first.setdefault(word, found) == found


def test_an_index_beside_the_model_is_used(tmp_path, sample_model):
    pytest.importorskip("faiss")
    model = tmp_path / "m.wv"
    shutil.copy(sample_model, model)
    from wordvec.index.approximate import NeighbourIndex

    vectors = wordvec.load_vectors(model)
    NeighbourIndex.build(vectors, quiet=True).save(tmp_path / "m.wv.index")
    served = Server(str(model))
    try:
        _, listing = served.get("/api/models")
        assert listing["models"][0]["search"].startswith("HNSW graph")
        _, answer = served.get("/api/neighbors?word=city&k=3")
        assert answer["search"] == "approximate"
        assert answer["neighbors"][0]["word"] == vectors.most_similar("city", topn=1)[0][0]
    finally:
        served.close()


def test_a_busy_port_is_one_error_line(server):
    port = server.url.rsplit(":", 1)[1]
    done = subprocess.run([sys.executable, "-m", "wordvec", "serve", "nothing.wv", "--port", port],
                          capture_output=True, text=True, timeout=60)  # fmt: skip
    assert (
        done.returncode == 1
        and done.stderr.startswith("Error: ")
        and "Traceback" not in done.stderr
    )


def _browser():
    """A headless Chromium through Selenium, or a skip that says how to get one."""
    webdriver = pytest.importorskip("selenium.webdriver")
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    driver = shutil.which("chromedriver")
    if not (chromium and driver):
        pytest.skip("no chromium: apt-get install chromium chromium-driver (CI installs them)")
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1280,900",
                     "--disable-dev-shm-usage"):  # fmt: skip
        options.add_argument(argument)
    service = webdriver.ChromeService(executable_path=driver)
    return webdriver.Chrome(options=options, service=service)


def test_the_explorer_page_in_a_real_browser(server, models, tmp_path):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    vectors = wordvec.load_vectors(models["sample"])
    browser = _browser()
    try:
        wait = WebDriverWait(browser, 20)
        browser.get(f"{server.url}/?q=city")  # the shareable URL
        rows = wait.until(lambda b: b.find_elements(By.CSS_SELECTOR, "#neighbors tr.neighbor"))
        nearest = vectors.most_similar("city", topn=1)[0][0]
        assert rows[0].find_element(By.CSS_SELECTOR, "a.word").text == nearest
        wait.until(lambda b: len(b.find_elements(By.CSS_SELECTOR, "#projection circle")) == 16)
        labels = [t.text for t in browser.find_elements(By.CSS_SELECTOR, "#projection text")]
        assert labels[0] == "city" and nearest in labels
        search = browser.find_element(By.ID, "q")  # typed, as a user would
        search.clear()
        search.send_keys("king\n")
        wait.until(lambda b: "king" in b.find_element(By.ID, "neighbors-title").text)
        for field, word in zip("abc", ("man", "king", "woman")):
            browser.find_element(By.ID, f"analogy-{field}").send_keys(word)
        browser.find_element(By.CSS_SELECTOR, "#analogy button").click()
        answer = wait.until(lambda b: b.find_elements(By.CSS_SELECTOR, "#analogy-result a.word"))
        assert answer[0].text == vectors.analogy("man", "king", "woman", k=1)[0][0]
        browser.find_element(By.ID, "words").send_keys("paris london berlin cat dog horse")
        browser.find_element(By.CSS_SELECTOR, "#paste button").click()
        wait.until(lambda b: len(b.find_elements(By.CSS_SELECTOR, "#projection circle")) == 6)
        browser.get(f"{server.url}/?q=cityy")
        error = wait.until(lambda b: b.find_elements(By.CSS_SELECTOR, "#neighbors .error a.word"))
        assert "city" in [a.text for a in error]
        browser.get(f"{server.url}/?q=city")
        wait.until(lambda b: len(b.find_elements(By.CSS_SELECTOR, "#projection circle")) == 16)
        time.sleep(0.3)
        shot = Path(os.environ.get("WORDVEC_SCREENSHOT", tmp_path / "explorer.png"))
        assert browser.save_screenshot(str(shot))
        assert shot.read_bytes().startswith(b"\x89PNG")
    finally:
        browser.quit()


def test_every_call_is_documented():
    from wordvec.serve.app import ROUTES
    from wordvec.serve.openapi import CALLS

    assert set(CALLS) == set(ROUTES)  # the OpenAPI description covers every call
    page = (Path(__file__).parent.parent / "docs" / "serve.md").read_text(encoding="utf-8")
    assert all(f"`/api/{name}`" in page for name in CALLS)
