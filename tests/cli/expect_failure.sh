#!/usr/bin/env bash
# A CLI run that must fail: nonzero exit status, no JSON summary on stdout, and a message on stderr
# matching the given extended regular expression.
# Usage: expect_failure.sh REGEX COMMAND [ARG ...]
set -uo pipefail
regex=$1
shift
out=$("$@" 2>/tmp/facto_expect_failure.$$)
status=$?
err=$(cat /tmp/facto_expect_failure.$$)
rm -f /tmp/facto_expect_failure.$$
printf 'exit status %d\nstdout: %s\nstderr: %s\n' "$status" "$out" "$err"
[ "$status" -ne 0 ] || { echo "FAIL: exit status 0"; exit 1; }
if grep -q '"stop_reason"' <<<"$out"; then echo "FAIL: a summary was printed"; exit 1; fi
grep -Eq -- "$regex" <<<"$err" || { echo "FAIL: stderr does not match /$regex/"; exit 1; }
