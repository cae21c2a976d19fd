#!/usr/bin/env bash
# llvm-reduce interestingness test for a failure found by scripts/stress-llvm.sh
# (docs/differential-testing.md, "Reducing a failure").
#
# Exit 0 iff opt-19 with the LLVM-only plugin still fails on MODULE in the same way: the
# verifier accepts MODULE before the pass, and `opt -passes=IT_PASSES` then exits non-zero
# or prints a crash message, and (if IT_PATTERN is set) its error output matches IT_PATTERN
# (an extended regular expression: pick the assertion or verifier message, so that the
# reduction keeps that bug and does not wander into another).
#   IT_PASSES    the pipeline (default 'sampler,verify')
#   IT_OPTS      more opt options (default '-sampler-schemes=all -sampler-sampling=on')
#   IT_PATTERN   required in the error output (default: none; any failure will do)
#   IT_PLUGIN    the plugin (default: this repository's build/lib/SamplerPassLLVM.so)
# Usage: IT_PATTERN='Instruction does not dominate' \
#          llvm-reduce-19 --test=test/difftest/interesting-ll.sh module.ll -o reduced.ll
set -u
m=${1:?usage: interesting-ll.sh MODULE.ll}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
plugin=${IT_PLUGIN:-$here/../../build/lib/SamplerPassLLVM.so}
passes=${IT_PASSES:-sampler,verify}
opts=${IT_OPTS:--sampler-schemes=all -sampler-sampling=on}
crash='PLEASE submit a bug report|Stack dump:|LLVM ERROR|Assertion .* failed|Broken module|error:'
pattern=${IT_PATTERN:-}
OPT=/usr/lib/llvm-19/bin/opt
"$OPT" -passes=verify -disable-output "$m" 2>/dev/null || exit 1
err=$( (timeout 60 "$OPT" -load-pass-plugin="$plugin" $opts -passes="$passes" -disable-output "$m" 2>&1 >/dev/null; echo "rc=$?") 2>&1)
rc=${err##*rc=}
{ [ "$rc" != 0 ] || grep -Eq "$crash" <<<"$err"; } || exit 1
[ -z "$pattern" ] || grep -Eq -- "$pattern" <<<"$err"
