/*===- next_countdown_x86_64.S - the runtime's draws, preserve_most ------===
 *
 * The entry points instrumented code calls on x86-64 when a countdown reaches
 * zero: __sampler_fire's (a site that may be sampled) and
 * __sampler_next_countdown's (a check asking for a fresh countdown). Each keeps
 * every general-purpose register but r11 (LLVM's preserve_most convention), so
 * that the call, which sits in the instrumented copy of a function, does not
 * force the function to save callee-saved registers on its fast path: a leaf
 * function stays a leaf. It saves the caller-saved registers the C
 * implementation may clobber and calls it. (XMM registers are not preserved
 * under preserve_most: the caller saves those it needs.)
 *
 * d = 1 in a started thread that draws directly (countdown.c's
 * __sampler_rt_every_direct and __sampler_rt_every_thread): each entry answers
 * what the C code answers without the register saves and the call. r11 is the
 * one register preserve_most lets us clobber.
 *===----------------------------------------------------------------------===*/
#if defined(__x86_64__) && defined(__linux__)

/* The start of the entry point NAME: IMPL (the C code, argument in rdi, answer
 * in rax) under preserve_most. At d = 1 (see above) it goes on after the macro,
 * to the code that answers; PRESERVE_MOST_END closes the function. */
.macro PRESERVE_MOST_ENTRY name, impl
        .text
        .p2align 4
        .globl  \name
        .type   \name,@function
\name:
        .cfi_startproc
        cmpb    $0, __sampler_rt_every_direct(%rip)
        jne     1f
2:
        pushq   %rcx
        .cfi_adjust_cfa_offset 8
        pushq   %rdx
        .cfi_adjust_cfa_offset 8
        pushq   %rsi
        .cfi_adjust_cfa_offset 8
        pushq   %rdi
        .cfi_adjust_cfa_offset 8
        pushq   %r8
        .cfi_adjust_cfa_offset 8
        pushq   %r9
        .cfi_adjust_cfa_offset 8
        pushq   %r10
        .cfi_adjust_cfa_offset 8
        /* 7 pushes after the return address: the stack is 16-byte aligned. */
        call    \impl
        popq    %r10
        .cfi_adjust_cfa_offset -8
        popq    %r9
        .cfi_adjust_cfa_offset -8
        popq    %r8
        .cfi_adjust_cfa_offset -8
        popq    %rdi
        .cfi_adjust_cfa_offset -8
        popq    %rsi
        .cfi_adjust_cfa_offset -8
        popq    %rdx
        .cfi_adjust_cfa_offset -8
        popq    %rcx
        .cfi_adjust_cfa_offset -8
        ret
1:
        movq    __sampler_rt_every_thread@gottpoff(%rip), %r11
        cmpb    $0, %fs:(%r11)
        je      2b
.endm

.macro PRESERVE_MOST_END name
        .cfi_endproc
        .size   \name, .-\name
.endm

/* Checks (and the sites of code built before ABI 4). At d = 1 a check is told
 * SAMPLER_EVERY_COUNTDOWN, a site that it is sampled and so is the next one (1). */
PRESERVE_MOST_ENTRY __sampler_next_countdown_preserve_most, __sampler_next_countdown_impl
        movabsq $0x8000000000000000, %r11       /* SAMPLER_FRESH_COUNTDOWN */
        movl    $1, %eax
        cmpq    %r11, %rdi
        movabsq $-0x6000000000000000, %r11      /* SAMPLER_EVERY_COUNTDOWN */
        cmoveq  %r11, %rax
        ret
PRESERVE_MOST_END __sampler_next_countdown_preserve_most

/* Sites. At d = 1: sampled, the next one too, in one word: 2 * 1 + 1. */
PRESERVE_MOST_ENTRY __sampler_fire_preserve_most, __sampler_fire_impl
        movl    $3, %eax
        ret
PRESERVE_MOST_END __sampler_fire_preserve_most

#endif
        .section .note.GNU-stack,"",@progbits
