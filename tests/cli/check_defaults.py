#!/usr/bin/env python3
"""Checks that no front end restates a default of the library's registry or chooses a solver for it.

The registry (src/solvers/registry.cpp) holds every problem kind's named parameters with their defaults
(facto_problem_param_info), every solver's parameters with theirs (facto_solver_param_info) and each
kind's default algorithm ("auto"). The command line, the Python, R, Rust and Julia bindings pass only
what their user chose and read the rest from the library. This script reads the tables through the CLI
(`facto --help` lists the problem parameters, `facto --problem KIND --solver NAME --list-params` each
solver's) and fails on, in the front ends' code (comments and docstrings aside):

  restated  a registry parameter's name given a literal equal to one of its defaults, as a default
            argument or an assignment (mu = 1e-5, `o->mu = 1e-5`, energy::Real = 0.99, lambda <- 5e-7)
  chosen    a registry algorithm's name given as a default, an assignment or a branch's value
            (solver="merit", algorithm <- if (gram) "nomad_cgm" else ...): the library's "auto" decides

Usage: check_defaults.py FACTO_CLI. Exit status 1 on any finding.
"""
import pathlib
import re
import subprocess
import sys

from check_algorithms import registry as algorithm_table  # `facto --list-algorithms`, parsed once

ROOT = pathlib.Path(__file__).resolve().parents[2]
# The front ends' own code (their tests may pin any value they test).
SOURCES = {
    "bindings/python/facto/*.py": "python",
    "bindings/r/R/*.R": "hash",
    "bindings/rust/facto/src/*.rs": "c",
    "bindings/julia/Facto/src/*.jl": "julia",
    "programs/facto/*.c": "c",
}
# A binding's names for registry parameters that its language reserves (Python's lambda).
ALIASES = {"lam": "lambda"}
# Parameters of the front ends' own helpers that share a solver parameter's name but not its meaning:
# (file, name). Each says why.
NOT_REGISTRY = {
    ("bindings/python/facto/data.py", "seed"),    # kmeans(X, K, replicates, seed): the helper's k-means++ seed
    ("bindings/r/R/facto.R", "seed"),             # facto_kmeans and the generators: their own seeds
    ("bindings/julia/Facto/src/Facto.jl", "seed"),  # the same helpers
    ("bindings/rust/facto/src/lib.rs", "seed"),
    ("bindings/r/R/fit.R", "seed"),               # facto_select_k(seed = 0): the first restart's, its own
}
NUMBER = r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?"


def problem_defaults(cli):
    """{name: {default values}} of the problem parameters, from `facto --help`."""
    text = subprocess.run([cli, "--help"], check=True, capture_output=True, text=True).stdout
    table = {}
    for kind, name, value in re.findall(rf"^  (\w+) (\w+): (?:int|double), default ({NUMBER})$", text, re.M):
        table.setdefault(name, set()).add(float(value))
    if not table:
        sys.exit("facto --help lists no problem parameters")
    return table


def registry(cli):
    """({kind: [algorithm]}, {solver parameter: {numeric defaults}}) from the CLI."""
    algorithms = {kind: [name for name, _, _ in listed] for kind, listed in algorithm_table(cli).items()}
    defaults = {}
    for kind, names in algorithms.items():
        if kind.startswith("distributed_"):
            continue
        for name in names:
            listing = subprocess.run([cli, "--problem", kind, "--solver", name, "--list-params"],
                                     capture_output=True, text=True).stdout
            for param, value in re.findall(rf"^  (\w+) +(?:double|int) +default ({NUMBER})", listing, re.M):
                defaults.setdefault(param, set()).add(float(value))
    return algorithms, defaults


def code_lines(path, style):
    """(number, line) of the code, comments and docstrings blanked."""
    text = path.read_text(errors="replace")
    if style == "c":
        text = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S)
    if style in ("python", "julia"):
        text = re.sub(r'"""(?:.|\n)*?"""', lambda m: "\n" * m.group(0).count("\n"), text)
    comment = {"python": "#", "hash": "#", "julia": "#", "c": "//"}[style]
    for number, line in enumerate(text.splitlines(), 1):
        yield number, line.split(comment)[0] if comment != "#" else re.sub(r"#.*", "", line)


def check(cli):
    parameters = problem_defaults(cli)
    algorithms, solver_defaults = registry(cli)
    for name, values in solver_defaults.items():
        parameters.setdefault(name, set()).update(values)
    names = {a for listed in algorithms.values() for a in listed} - {"auto"}
    assigned = re.compile(rf"(?:->|\b)(\w+)\s*(?:::\s*\w+\s*)?(?<![=!<>])(?:=|<-)(?!=)\s*({NUMBER})\b")
    # C and Rust have no default arguments: there a restated default is a field's (o->mu = 1e-5)
    field = re.compile(rf"(?:->|\.)(\w+)\s*=(?!=)\s*({NUMBER})\b")
    chosen = re.compile(r'(?:(?<![=!<>])=(?!=)|<-|\belse\b|\?|\breturn\b|:)\s*"(\w+)"')
    findings, lines = [], 0
    for pattern, style in SOURCES.items():
        for path in sorted(ROOT.glob(pattern)):
            relative = str(path.relative_to(ROOT))
            for number, line in code_lines(path, style):
                lines += 1
                for name, value in (field if style == "c" else assigned).findall(line):
                    registry_name = ALIASES.get(name, name)
                    if (relative, registry_name) in NOT_REGISTRY:
                        continue
                    if float(value) in parameters.get(registry_name, ()):
                        findings.append(f"{relative}:{number}: restates the library's default {registry_name} = "
                                        f"{value}: pass nothing and let the library's table decide")
                for name in chosen.findall(line):
                    if name in names:
                        findings.append(f"{relative}:{number}: chooses the algorithm {name!r}: pass \"auto\" and "
                                        f"let the registry decide")
    return findings, lines, parameters


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    findings, lines, parameters = check(sys.argv[1])
    for finding in findings:
        print(finding)
    print(f"registry: {len(parameters)} parameter names with defaults; {lines} lines of front-end code checked: "
          f"{len(findings)} restated defaults or chosen solvers")
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
