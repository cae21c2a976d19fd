/* tls-chain.c: what a chain of read-modify-writes of one thread-local costs on
 * this machine, through the segment register and through the thread pointer.
 *
 * Each check of sampler's fast copy is `countdown -= W; if (countdown < 0)`
 * on one thread-local, and each depends on the one before it through memory.
 * This times loops whose bodies are only such checks (the countdown never
 * reaches zero), in the shapes the compiler emits:
 *   segment   addq $-3, %fs:cd@tpoff              (LLVM's default on x86-64)
 *   tp-block  movq %fs:0, %rax; addq $-3, cd@tpoff(%rax)
 *             (the thread pointer loaded again: -mno-tls-direct-seg-refs)
 *   tp-held   addq $-3, (%rbx), the address computed once (IndirectTLS.h)
 *   global    addq $-3, g(%rip)                    (an ordinary global)
 * with one or two checks an iteration, and one before and one in a callee.
 * The loop's own counter and branch are the "none" row. Run:
 *   clang-19 -O2 bench/tls-chain/tls-chain.c -o tls-chain && ./tls-chain
 * docs/benchmarks.md, "The countdown's chain through the segment register",
 * has the figures of the project's machine. */
#include <stdio.h>
#include <time.h>

__thread long cd = 1L << 62;
long g = 1L << 62;

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

#define SEG "addq $-3, %%fs:cd@tpoff\n\tjs 9f\n9:\n\t"
#define TPB "movq %%fs:0, %%rax\n\taddq $-3, cd@tpoff(%%rax)\n\tjs 9f\n9:\n\t"
#define HELD "addq $-3, (%0)\n\tjs 9f\n9:\n\t"
#define GLOB "addq $-3, g(%%rip)\n\tjs 9f\n9:\n\t"

__attribute__((noinline)) static void callee_seg(void) {
  __asm__ volatile(SEG ::: "memory", "cc");
}
__attribute__((noinline)) static void callee_tpb(void) {
  __asm__ volatile(TPB ::: "rax", "memory", "cc");
}
__attribute__((noinline)) static void callee_held(long *p) {
  __asm__ volatile(HELD ::"r"(p) : "memory", "cc");
}
__attribute__((noinline)) static void callee_none(void) {
  __asm__ volatile("" ::: "memory");
}

#define N 100000000L
#define TIME(name, body)                                                       \
  do {                                                                         \
    double t = now();                                                          \
    for (long i = 0; i < N; i++) {                                             \
      body;                                                                    \
    }                                                                          \
    printf("%-34s %6.2f ns an iteration\n", name, (now() - t) / N * 1e9);      \
  } while (0)

int main(void) {
  long *held = &cd; /* this thread's: computed once, as the pass does */
  TIME("none", __asm__ volatile("" ::: "memory"));
  TIME("segment, 1 check", __asm__ volatile(SEG ::: "memory", "cc"));
  TIME("segment, 2 checks", __asm__ volatile(SEG SEG ::: "memory", "cc"));
  TIME("tp-block, 2 checks", __asm__ volatile(TPB TPB ::: "rax", "memory", "cc"));
  TIME("tp-held, 2 checks", __asm__ volatile(HELD HELD ::"r"(held) : "memory", "cc"));
  TIME("global, 2 checks", __asm__ volatile(GLOB GLOB ::: "memory", "cc"));
  TIME("call, no check", callee_none());
  TIME("segment, check + call with check",
       { __asm__ volatile(SEG ::: "memory", "cc"); callee_seg(); });
  TIME("tp-block, check + call with check",
       { __asm__ volatile(TPB ::: "rax", "memory", "cc"); callee_tpb(); });
  TIME("tp-held, check + call with check",
       { __asm__ volatile(HELD ::"r"(held) : "memory", "cc"); callee_held(held); });
  return 0;
}
