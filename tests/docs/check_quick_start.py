#!/usr/bin/env python3
"""Runs README.md's quick starts as a newcomer would: the CLI line, the C program and the Python lines,
each from a fresh directory holding the repository's data/, against the build tree. Each must run to a
clustering: the CLI's summary and the C program say FACTO_CONVERGED, and the Python lines print an
accuracy above 0.6 on satimage's 6 classes (the largest class's share is 0.24; scikit-learn's KMeans
reaches 0.68, docs/benchmarks.md's defaults panel). The R, Rust and Julia blocks need their packages built, which the binding stages do.

Usage: check_quick_start.py C_COMPILER BUILD_DIR FACTO_CLI. Exit status 1 on any failure."""
import json
import os
import pathlib
import re
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[2]


def block(text, language, starts=""):
    found = [b for b in re.findall(rf"```{language}\n(.*?)```", text, re.S) if b.startswith(starts)]
    if len(found) != 1:
        sys.exit(f"FAIL: README.md has {len(found)} {language} blocks, the quick start one")
    return found[0]


def run(command, cwd, env=None):
    done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"FAIL: {command} exited {done.returncode}\n{done.stderr[-3000:]}")
    return done.stdout


def main():
    compiler, build, cli = sys.argv[1], pathlib.Path(sys.argv[2]).resolve(), sys.argv[3]
    readme = (ROOT / "README.md").read_text()
    with tempfile.TemporaryDirectory() as work:
        (pathlib.Path(work) / "data").symlink_to(ROOT / "data")
        line = block(readme, "sh", "build/programs/facto ").strip()
        if "\n" in line:
            sys.exit(f"FAIL: the CLI quick start is not one build/programs/facto line: {line!r}")
        summary = json.loads(run([cli, *line.split()[1:], "--quiet"], work))
        assert summary["stop_reason"] == "FACTO_CONVERGED", summary
        assert (pathlib.Path(work) / "labels.csv").exists(), "the CLI wrote no labels.csv"
        source = pathlib.Path(work) / "app.c"
        source.write_text(block(readme, "c"))
        run([compiler, "-std=c99", "-Wall", "-Wextra", "-Werror", str(source), f"-I{ROOT / 'include'}",
             f"-L{build}", "-lfacto", f"-Wl,-rpath,{build}", "-o", "app"], work)
        said = run(["./app"], work)
        assert said.startswith("FACTO_CONVERGED"), said
        env = dict(os.environ, FACTO_LIBRARY=str(build / "libfacto.so.0"),
                   PYTHONPATH=str(ROOT / "bindings" / "python"))
        python = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else sys.executable  # Debian's numpy
        accuracy = float(run([python, "-c", block(readme, "python")], work, env).split()[-1])
        assert accuracy > 0.6, f"the Python quick start's accuracy is {accuracy}"
    print(f"README's CLI, C and Python quick starts ran: {summary['accuracy']:.4f}, {said.strip()}, {accuracy:.4f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
