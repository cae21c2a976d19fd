// An unwritable SAMPLER_FILE: one line on stderr naming the problem; the
// program runs to completion and keeps its exit status and output.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %sampler-cc -O1 %s -o %t/prog
// RUN: env SAMPLER_FILE=%t/no/such/dir/r.report %t/prog 2> %t/err.txt > %t/out.txt; test $? -eq 3
// RUN: FileCheck %s --check-prefix=OUT < %t/out.txt
// RUN: FileCheck %s < %t/err.txt
// RUN: test $(wc -l < %t/err.txt) -eq 1
// A bad SAMPLER_SPARSITY: one line naming the variable and value; the default is used.
// RUN: env SAMPLER_SPARSITY=often SAMPLER_FILE=%t/r.report %t/prog 2> %t/err2.txt > /dev/null; test $? -eq 3
// RUN: FileCheck %s --check-prefix=SPARSITY < %t/err2.txt
// RUN: grep -q '^sparsity.100$' %t/r.report

// OUT: done
// CHECK: sampler: cannot write report '{{.*}}/no/such/dir/r.report': No such file or directory
// SPARSITY: sampler: SAMPLER_SPARSITY='often'

#include <stdio.h>
int main(int argc, char **argv) {
  if (argc > 5)
    return 1;
  puts("done");
  return 3;
}
