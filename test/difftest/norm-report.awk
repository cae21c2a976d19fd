# Used by scripts/difftest-csmith.sh (counts check) and test/difftest/interesting-c.sh.
# Usage: awk -f norm-report.awk REPORT.txt REPORT.txt   (the file twice: two passes)
# Sites and counts of a decoded report (sampler-report text), comparable across builds: no
# run details, no estimates, unit lines without the sampled/unconditional details, and no
# scalar-pairs site between pointers (stack addresses differ between builds). A pointer is a
# variable with a "NAME <=> NULL" site in the same function.
FNR == NR {
  if (split($0, f, "  ") >= 5 && f[4] == "scalar-pairs" && f[5] ~ / <=> NULL$/) {
    v = f[5]; sub(/ <=> NULL$/, "", v); ptr[f[3] SUBSEP v] = 1
  }
  next
}
/^unit / { go = 1; sub(/\((sampled|unconditional), /, "("); sub(/, site table in .*\)/, ")"); print; next }
!go { next }
/^    / { if (!skip) { sub(/  estimate .*$/, ""); print } ; next }
{
  skip = 0
  if (split($0, f, "  ") >= 5 && f[4] == "scalar-pairs") {
    v = f[5]; sub(/ <=> .*$/, "", v)
    if ((f[3] SUBSEP v) in ptr) { skip = 1; next }
  }
  sub(/  estimate .*$/, ""); print
}
