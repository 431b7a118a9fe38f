"""Runs the facto CLI and checks that its JSON summary tells the truth about the stop: a solve that
says CONVERGED has its stationarity measure at most its tolerance and, where the solver has one, its
feasibility at most feasibility_tolerance; NOMAD's printed constraint errors (relative trace error,
row sums) are at most that feasibility (all printed to 7 digits), and its bound's printed gap is
(U - f)/|f|. Further checks: key=value pairs after --expect (stop_reason, or a key whose value must
be at most / at least a number with key<=x, key>=x).

Usage: check_summary.py [--expect COND ...] -- COMMAND [ARG ...]"""
import json
import subprocess
import sys

split = sys.argv.index("--")
conditions, command = sys.argv[1:split], sys.argv[split + 1:]
if conditions and conditions[0] == "--expect":
    conditions = conditions[1:]
run = subprocess.run(command, capture_output=True, text=True)
print(run.stderr[-2000:])
print(run.stdout)
if run.returncode != 0:
    sys.exit(f"FAIL: exit status {run.returncode}")
summary = json.loads(run.stdout)
failures = []
if summary["stop_reason"] == "FACTO_CONVERGED":
    if not summary["stationarity"] <= summary["tolerance"]:
        failures.append("CONVERGED with stationarity above tolerance")
    if "feasibility_tolerance" in summary and not summary["feasibility"] <= summary["feasibility_tolerance"]:
        failures.append("CONVERGED with feasibility above feasibility_tolerance")
for key in ("relative_trace_error", "row_sum_error"):
    if key in summary and not summary[key] <= summary["feasibility"] * (1 + 1e-5) + 1e-15:
        failures.append(f"{key} {summary[key]} above the feasibility {summary['feasibility']}")
if "upper_bound" in summary:  # the printed gap is (U - f) / |f| (printed to 7 digits, U to 10)
    gap = (summary["upper_bound"] - summary["objective"]) / abs(summary["objective"])
    if not abs(summary.get("bound_gap_over_objective", float("nan")) - gap) <= 1e-6 * abs(gap) + 1e-9:
        failures.append(f"bound_gap_over_objective {summary.get('bound_gap_over_objective')}, (U - f)/|f| = {gap}")
for condition in conditions:
    for operator in ("<=", ">=", "="):
        if operator in condition:
            key, value = condition.split(operator, 1)
            break
    got = summary.get(key)
    ok = (got is not None and (got <= float(value) if operator == "<=" else
                               got >= float(value) if operator == ">=" else str(got) == value))
    if not ok:
        failures.append(f"expected {condition}, got {key} = {got}")
if failures:
    sys.exit("FAIL: " + "; ".join(failures))
