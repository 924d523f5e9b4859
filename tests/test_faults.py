"""The faults a careful user finds by hand: waits without end, lost files, silent overflow,
scratch left behind, messages that name the wrong cause. Each runs the CLI in a process of its
own with a deadline, so that a hang or a signal fails the test as it would fail the user."""

from __future__ import annotations

import os
import resource
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from .conftest import SAMPLE, TOY_LINES

WORDVEC = [sys.executable, "-c", "from wordvec.cli import main; main()"]


def wordvec(*args, timeout: float = 120, **kwargs) -> subprocess.CompletedProcess:
    """Run the CLI; a hang, a signal or a traceback fails the test."""
    try:
        done = subprocess.run(
            [*WORDVEC, *map(str, args)], capture_output=True, text=True, timeout=timeout, **kwargs
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"wordvec {' '.join(map(str, args))} did not end within {timeout} s")
    assert done.returncode >= 0, f"ended by signal {-done.returncode}: {done.stderr[-500:]}"
    assert "Traceback" not in done.stderr, done.stderr
    return done


def error_line(done: subprocess.CompletedProcess) -> str:
    assert done.returncode == 1, done.stderr
    return done.stderr.strip().splitlines()[-1]


@pytest.fixture
def corpus(tmp_path) -> Path:
    path = tmp_path / "c.txt"
    path.write_text("\n".join(TOY_LINES * 20) + "\n", encoding="utf-8")
    return path


QUICK = ["--min-count", "1", "--dim", "4", "--epochs", "1", "--threads", "1", "-q"]


# --- waits without end ---------------------------------------------------------------------


def test_a_server_that_is_not_a_dask_scheduler_is_given_up(corpus, tmp_path):
    """A port where something accepts connections and never answers (as a web server waits
    for a request line): Dask's own timeout covers only the connection."""
    server = socket.create_server(("127.0.0.1", 0))
    accepted = []
    threading.Thread(target=lambda: accepted.append(server.accept()), daemon=True).start()
    port = server.getsockname()[1]
    environment = {**os.environ, "DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT": "2s"}
    start = time.monotonic()
    done = wordvec("cooccur", corpus, "-o", tmp_path / "c.cooc", "--scheduler",
                   f"tcp://127.0.0.1:{port}", timeout=60, env=environment)  # fmt: skip
    assert error_line(done) == (
        f"Error: no Dask scheduler answered at tcp://127.0.0.1:{port} within 2 s (is something "
        "else listening on that port?)"
    )
    assert time.monotonic() - start < 30 and accepted
    assert not (tmp_path / "c.cooc").exists()
    server.close()


@pytest.fixture
def shard_folder(tmp_path) -> Path:
    """A folder as Spark writes one: part files (one empty), ``_SUCCESS``, checksums,
    ``_temporary/``; and a FIFO that would block whoever opens it."""
    folder = tmp_path / "shards"
    (folder / "_temporary").mkdir(parents=True)
    (folder / "part-00000").write_text("\n".join(TOY_LINES[:3]) + "\n", encoding="utf-8")
    (folder / "part-00001").write_bytes(b"")
    (folder / "part-00002").write_text("\n".join(TOY_LINES[3:]) + "\n", encoding="utf-8")
    (folder / "_SUCCESS").write_bytes(b"")
    (folder / ".part-00000.crc").write_bytes(b"\x00\x01binary")
    (folder / "_temporary" / "part-00009").write_text("not data\n", encoding="utf-8")
    os.mkfifo(folder / "pipe")
    return folder


@pytest.mark.parametrize("as_url", [False, True], ids=["path", "file-url"])
def test_shard_folders_read_only_their_data_files(shard_folder, corpus, tmp_path, as_url):
    """Local and file:// folders: the same files, the FIFO skipped (not waited on), the
    empty shard noted, ``_``/``.`` names left out; the counts are those of the data alone."""
    (tmp_path / "alone").mkdir()
    (tmp_path / "alone" / "c.txt").write_text("\n".join(TOY_LINES) + "\n", encoding="utf-8")
    source = shard_folder.as_uri() if as_url else shard_folder
    options = ["--min-count", "1", "--window", "2", "--threads", "1"]
    done = wordvec("cooccur", source, "-o", tmp_path / "shards.cooc", *options, "-q", timeout=60)
    assert done.returncode == 0, done.stderr
    empty = f"file://{shard_folder / 'part-00001'}" if as_url else shard_folder / "part-00001"
    assert done.stderr == f"note: skipping an empty file: {empty}\n"
    wordvec("cooccur", tmp_path / "alone", "-o", tmp_path / "alone.cooc", *options, "-q")
    assert (tmp_path / "shards.cooc").read_bytes() == (tmp_path / "alone.cooc").read_bytes()


def test_a_folder_of_nothing_but_markers_is_one_error_line(tmp_path):
    folder = tmp_path / "job"
    folder.mkdir()
    (folder / "_SUCCESS").write_bytes(b"")
    (folder / "part-00000").write_bytes(b"")
    done = wordvec("train", folder, "-o", tmp_path / "m.wv", *QUICK)
    assert error_line(done) == f"Error: corpus directory has only empty files: {folder}"


# --- lost files ----------------------------------------------------------------------------


def test_a_vocabulary_file_read_is_never_rewritten(corpus, tmp_path):
    vocab = tmp_path / "v.txt"
    vocab.write_text("like 100\ncats 60\ni 100\n", encoding="utf-8")
    before = vocab.read_bytes()
    done = wordvec("train", corpus, "-o", tmp_path / "m.wv", "--read-vocab", vocab,
                   "--save-vocab", vocab, *QUICK)  # fmt: skip
    assert (
        error_line(done) == f"Error: --save-vocab {vocab} is the input file {vocab}; choose another"
    )
    assert vocab.read_bytes() == before and not (tmp_path / "m.wv").exists()


def test_two_outputs_may_not_be_one_file(corpus, tmp_path):
    same = tmp_path / "same.wv"
    same.write_bytes(b"earlier")
    done = wordvec("train", corpus, "-o", same, "--save-vocab", same, *QUICK)
    assert error_line(done) == (
        f"Error: the output {same} and --save-vocab {same} are one file; choose two"
    )
    assert same.read_bytes() == b"earlier"
    done = wordvec("cooccur", corpus, "-o", same, "--save-vocab", tmp_path / "." / "same.wv")
    assert "are one file; choose two" in error_line(done)


def test_an_export_may_not_replace_the_words_file_it_reads(sample_model, tmp_path):
    vectors = tmp_path / "p.tsv"
    assert wordvec("export", sample_model, vectors, "--format", "tsv").returncode == 0
    words = tmp_path / "p.metadata.tsv"
    before = words.read_bytes()
    done = wordvec("export", vectors, words, "--format", "word2vec")
    assert (
        error_line(done) == f"Error: the output {words} is the input file {words}; choose another"
    )
    assert words.read_bytes() == before


# --- silently wrong ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "lines, message",
    [
        ("like 9223372036854775807\ncats 5\n",
         "v.txt: the counts add up to 9,223,372,036,854,775,812, more than 2**62 (no corpus is "
         "that large; a count is wrong)"),
        ("like 5\ncats 0\n", "v.txt, line 2: a count of 0 (counts are 1 or more)"),
    ],
    ids=["overflow", "zero"],
)  # fmt: skip
def test_vocabulary_counts_that_would_break_the_model_are_refused(corpus, tmp_path, lines, message):
    vocab = tmp_path / "v.txt"
    vocab.write_text(lines, encoding="utf-8")
    done = wordvec("train", corpus, "-o", tmp_path / "m.wv", "--read-vocab", vocab, *QUICK)
    assert error_line(done) == f"Error: {message}"
    assert "Warning" not in done.stderr and not (tmp_path / "m.wv").exists()


# --- scratch left behind -------------------------------------------------------------------


def _ended_pid() -> int:
    """The pid of a process that has ended."""
    child = subprocess.Popen(["true"])
    child.wait()
    return child.pid


def test_scratch_of_ended_runs_is_reaped_and_live_runs_are_left(corpus, tmp_path):
    from wordvec.runtime.scratch import OWNER

    scratch, out = tmp_path / "scratch", tmp_path / "out"
    scratch.mkdir()
    out.mkdir()
    host = OWNER.rsplit("@", 1)[1]
    dead, alive = _ended_pid(), os.getpid()
    (scratch / f"wordvec-{dead}@{host}abc").mkdir()
    (scratch / f"wordvec-{dead}@{host}abc" / "ids.i32").write_bytes(b"\0" * 4000)
    (scratch / f"wordvec-{alive}@{host}def").mkdir()  # a run still going: left alone
    (scratch / f"wordvec-{dead}@otherhost-ghi").mkdir()  # another machine's: left alone
    (out / f".m.wv.wordvec-{dead}@{host}jkl.tmp").write_bytes(b"partial")
    (out / f".m.wv.wordvec-{alive}@{host}mno.tmp").write_bytes(b"being written")
    done = wordvec("train", corpus, "-o", out / "m.wv", "--tmp-dir", scratch, *QUICK)
    assert done.returncode == 0, done.stderr
    assert done.stderr.splitlines() == [
        f"note: removed the scratch of an ended wordvec run (pid {dead}): "
        f"{out / f'.m.wv.wordvec-{dead}@{host}jkl.tmp'} (0.0 MB)",  # checking the outputs
        f"note: removed the scratch of an ended wordvec run (pid {dead}): "
        f"{scratch / f'wordvec-{dead}@{host}abc'} (0.0 MB)",  # then reading the corpus
    ]
    assert sorted(p.name for p in scratch.iterdir()) == sorted(
        [f"wordvec-{alive}@{host}def", f"wordvec-{dead}@otherhost-ghi"]
    )
    assert sorted(p.name for p in out.iterdir()) == [f".m.wv.wordvec-{alive}@{host}mno.tmp", "m.wv"]


@pytest.mark.slow  # three training runs killed on the way, and one that finishes
def test_a_run_killed_anywhere_leaves_nothing_after_the_next(tmp_path):
    """kill -9 while reading, training and writing; earlier outputs stay as they were, and
    the next run (with the same --tmp-dir) leaves no scratch."""
    scratch, out = tmp_path / "scratch", tmp_path / "out"
    scratch.mkdir()
    out.mkdir()
    model = out / "m.wv"
    model.write_bytes(b"an earlier model")
    args = [*WORDVEC, "train", str(SAMPLE), "-o", str(model), "--tmp-dir", str(scratch),
            "--epochs", "20", "--threads", "1", "-q"]  # fmt: skip
    for delay in (0.8, 3.0, 6.0):
        run = subprocess.Popen(args, stderr=subprocess.PIPE)
        time.sleep(delay)
        run.send_signal(signal.SIGKILL)
        run.wait(timeout=30)
        assert model.read_bytes() == b"an earlier model"
    assert list(scratch.iterdir()), "the killed runs left no scratch to reap: kill them later"
    done = wordvec("train", SAMPLE, "-o", model, "--tmp-dir", scratch, "--epochs", "1", "-q")
    assert done.returncode == 0, done.stderr
    assert "note: removed the scratch of an ended wordvec run" in done.stderr
    assert list(scratch.iterdir()) == [] and [p.name for p in out.iterdir()] == ["m.wv"]


# --- messages that name the cause ----------------------------------------------------------


def test_a_parent_that_is_a_file_is_named(corpus, tmp_path):
    done = wordvec("train", corpus, "-o", tmp_path / "m.wv", "--save-vocab",
                   corpus / "sub" / "v.txt", *QUICK)  # fmt: skip
    assert error_line(done) == (
        f"Error: cannot write {corpus / 'sub' / 'v.txt'}: {corpus} is a file, not a directory"
    )


def test_a_full_scratch_disk_is_named_with_its_place(tmp_path):
    """A file size limit stands in for a full disk (the same short write, no root needed)."""

    def limited() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # the write fails instead
        resource.setrlimit(resource.RLIMIT_FSIZE, (200_000, 200_000))

    done = wordvec("cooccur", SAMPLE, "-o", tmp_path / "c.cooc", "--memory", "0.001",
                   "--tmp-dir", tmp_path, "-q", preexec_fn=limited)  # fmt: skip
    line = error_line(done)
    assert line.startswith(f"Error: writing scratch to {tmp_path} failed at ")
    assert line.endswith(
        "free there: the disk is full (or a file size limit was hit); give --tmp-dir a place "
        "with more room"
    )
    assert list(tmp_path.iterdir()) == []


def test_a_limited_address_space_reads_a_small_corpus(tmp_path):
    """Under ``ulimit -v 4000000`` a 183-byte corpus failed with "Cannot allocate memory":
    the reader reserved 5 GB of address space a thread, whatever the corpus."""
    small = tmp_path / "small.txt"
    small.write_text("\n".join(TOY_LINES * 6) + "\n")

    def limited() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (4_000_000 * 1024, 4_000_000 * 1024))

    for source, stdin in ((small, None), ("-", small.read_text())):  # measured, and not
        done = wordvec("train", source, "-o", tmp_path / "m.wv", "--min-count", "1", "--dim",
                       "4", "--epochs", "1", "-q", input=stdin, preexec_fn=limited)  # fmt: skip
        assert done.returncode == 0, done.stderr


def test_a_huge_query_word_is_shortened_in_the_message(sample_model):
    word = "x" * 10_000_000
    done = wordvec("neighbors", sample_model, input=word + "\n")
    assert error_line(done) == (
        f"Error: '{'x' * 80}...' (10,000,000 characters) is not in the vocabulary (12,353 words)"
    )


def test_a_vocabulary_url_is_read_as_a_url(corpus, tmp_path):
    done = wordvec("train", corpus, "-o", tmp_path / "m.wv", "--read-vocab",
                   "http://127.0.0.1:9/v.txt", *QUICK)  # fmt: skip
    assert error_line(done).startswith("Error: cannot read http://127.0.0.1:9/v.txt: ")
    for option in ("--init", "--init-vectors"):
        done = wordvec("train", corpus, "-o", tmp_path / "m.wv", option, "s3://b/m.wv", *QUICK)
        assert error_line(done) == f"Error: {option} reads a local file, not a URL"
    done = wordvec("train", corpus, "-o", "s3://b/m.wv", *QUICK)
    assert (
        error_line(done)
        == "Error: the output s3://b/m.wv is a URL: wordvec writes local files only"
    )


def test_network_reads_have_deadlines():
    from wordvec.corpus.urls import NETWORK_TIMEOUT, deadlines

    assert deadlines("s3") == {
        "config_kwargs": {"connect_timeout": NETWORK_TIMEOUT, "read_timeout": NETWORK_TIMEOUT}
    }
    import aiohttp  # in the test extra: a skipped test could not fail

    wait = deadlines("https")["client_kwargs"]["timeout"]
    assert isinstance(wait, aiohttp.ClientTimeout) and wait.sock_read == NETWORK_TIMEOUT


def test_a_reader_that_stops_early_ends_the_run_quietly(sample_model, tmp_path):
    """`wordvec embed ... | head -1`: no 'Error: Broken pipe', no traceback at exit."""
    lines = tmp_path / "lines.txt"
    lines.write_text("the king of france\n" * 200_000, encoding="utf-8")
    run = subprocess.Popen([*WORDVEC, "embed", str(sample_model), str(lines)],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE)  # fmt: skip
    assert run.stdout.readline().split()[0]
    run.stdout.close()
    assert run.wait(timeout=120) == 1
    assert run.stderr.read() == b""


def test_a_command_exits_without_collecting_its_objects(toy_corpus):
    """At exit, after the exit handlers registered before its kernels loaded, a process that
    loaded them freezes the collector (the teardown's collections walked numba's objects:
    0.25-0.35 s at the end of every training). The command line, whose process is its own,
    freezes without the one collection that a library user's process gets first
    (tests/test_startup.py): its garbage is left to the process's end."""
    code = (
        "import atexit, gc\n"
        "atexit.register(lambda: print('frozen', gc.get_freeze_count() > 0))\n"
        "from click.testing import CliRunner\n"
        "from wordvec.cli import main\n"
        "class Cycle:\n"
        "    def __del__(self): print('finalised')\n"
        f"command = ['train', {str(toy_corpus)!r}, '-o', {str(toy_corpus)!r} + '.wv',\n"
        "           '--min-count', '1', '--epochs', '1', '--quiet']\n"
        "for _ in range(2):\n"
        "    assert CliRunner().invoke(main, command).exit_code == 0\n"
        "c = Cycle(); c.me = c; del c\n"
        "gc.disable()\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120)  # fmt: skip
    assert done.stdout.split() == ["frozen", "True"], done.stderr


def test_an_atomic_write_gives_what_open_would_and_leaves_nothing_open(tmp_path):
    """The partial file is opened without cutting it to zero (ext4 writes a file cut to zero
    back at its close, in the writer's time): text and bytes come out as ``open`` writes
    them, and a mode ``open`` refuses leaves no file and no descriptor behind."""
    from wordvec.runtime.atomic import atomic_write

    with atomic_write(tmp_path / "t.txt", "w", encoding="utf-8") as file:
        file.write("a\nzürich\n")
    with open(tmp_path / "ref.txt", "w", encoding="utf-8") as file:
        file.write("a\nzürich\n")
    assert (tmp_path / "t.txt").read_bytes() == (tmp_path / "ref.txt").read_bytes()
    with atomic_write(tmp_path / "b.bin") as file:
        file.write(b"\x00\n\r\n")
    assert (tmp_path / "b.bin").read_bytes() == b"\x00\n\r\n"
    descriptors = Path("/proc/self/fd")
    before = len(list(descriptors.iterdir())) if descriptors.exists() else None
    with (
        pytest.raises(ValueError, match="binary mode"),
        atomic_write(tmp_path / "x", "wb", encoding="utf-8"),
    ):
        pass
    if before is not None:
        assert len(list(descriptors.iterdir())) == before
    assert sorted(path.name for path in tmp_path.iterdir()) == ["b.bin", "ref.txt", "t.txt"]
