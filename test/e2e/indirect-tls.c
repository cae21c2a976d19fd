// Through sampler-cc, on x86-64, instrumented code reaches the countdown
// through the thread pointer (%fs:0) with its address held in a register, in an
// executable (local-exec: @TPOFF) and in position-independent code (initial-exec:
// @GOTTPOFF), never through the segment register; -fno-sampler-indirect-tls
// gives the segment form back (IndirectTLS.h). The program runs the same and
// counts exactly at d = 1 either way.
// REQUIRES: x86_64
// RUN: rm -rf %t && mkdir -p %t
// RUN: %sampler-cc -O2 -S %s -o - | FileCheck %s --check-prefix=EXE
// RUN: %sampler-cc -O2 -fPIC -S %s -o - | FileCheck %s --check-prefix=PIC
// RUN: %sampler-cc -O2 -fno-sampler-indirect-tls -S %s -o - | FileCheck %s --check-prefix=SEG
// RUN: %clang -O2 %s -o %t/plain && %t/plain > %t/plain.out
// RUN: %sampler-cc -O2 %s -o %t/held
// RUN: %sampler-cc -O2 -fno-sampler-indirect-tls %s -o %t/seg
// RUN: env SAMPLER_SPARSITY=1 SAMPLER_FILE=%t/held.report %t/held > %t/held.out
// RUN: env SAMPLER_SPARSITY=1 SAMPLER_FILE=%t/seg.report %t/seg > %t/seg.out
// RUN: cmp %t/plain.out %t/held.out && cmp %t/plain.out %t/seg.out
// RUN: %sampler-report --all --json %t/held.report --binary %t/held > %t/held.json
// RUN: %sampler-report --all --json %t/seg.report --binary %t/seg > %t/seg.json
// RUN: python3 %S/Inputs/stats.py equal %t/held.json %t/seg.json

// EXE-LABEL: sum:
// EXE:       movq %fs:0, [[TP:%r[a-z0-9]+]]
// EXE-NEXT:  leaq __sampler_countdown@TPOFF([[TP]]), [[ADDR:%r[a-z0-9]+]]
// EXE:       addq ${{-[0-9]+}}, ([[ADDR]])
// EXE-NOT:   %fs:__sampler_countdown
// PIC-LABEL: sum:
// PIC:       movq %fs:0, [[TP:%r[a-z0-9]+]]
// PIC-NEXT:  addq __sampler_countdown@GOTTPOFF(%rip), [[TP]]
// PIC-NOT:   %fs:({{%r[a-z0-9]+}})
// SEG-LABEL: sum:
// SEG:       addq ${{-[0-9]+}}, %fs:__sampler_countdown@TPOFF
#include <stdio.h>

__attribute__((noinline)) int weigh(int x) { return x % 7 == 3 ? x / 3 : x + 1; }

__attribute__((noinline)) int sum(const int *a, int n) {
  int s = 0;
  for (int i = 0; i < n; i++)
    if (a[i] > 3)
      s += weigh(a[i]);
  return s;
}

int main(void) {
  int a[100];
  for (int i = 0; i < 100; i++)
    a[i] = (i * 37) % 11;
  long t = 0;
  for (int r = 0; r < 1000; r++)
    t += sum(a, 100 - r % 50);
  printf("%ld\n", t);
  return 0;
}
