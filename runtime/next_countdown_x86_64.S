/*===- next_countdown_x86_64.S - __sampler_next_countdown, preserve_most ---===
 *
 * The entry point instrumented code calls on x86-64 when a countdown reaches
 * zero. It keeps every general-purpose register but r11 (LLVM's preserve_most
 * convention), so that the call, which sits in the instrumented copy of a
 * function, does not force the function to save callee-saved registers on
 * its fast path: a leaf function stays a leaf. It saves the caller-saved
 * registers the C implementation may clobber and calls it. (XMM registers are
 * not preserved under preserve_most: the caller saves those it needs.)
 *===----------------------------------------------------------------------===*/
#if defined(__x86_64__) && defined(__linux__)
        .text
        .p2align 4
        .globl  __sampler_next_countdown_preserve_most
        .type   __sampler_next_countdown_preserve_most,@function
__sampler_next_countdown_preserve_most:
        .cfi_startproc
        /* d = 1 in a started thread that draws directly (countdown.c's
         * __sampler_rt_every_direct and __sampler_rt_every_thread): a check is told
         * SAMPLER_EVERY_COUNTDOWN and a site is sampled, what the C code answers,
         * without the register saves and the call. r11 is the one register
         * preserve_most lets us clobber. */
        cmpb    $0, __sampler_rt_every_direct(%rip)
        jne     .Leveryrun
.Lcall:
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
        call    __sampler_next_countdown_impl
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
.Leveryrun:
        movq    __sampler_rt_every_thread@gottpoff(%rip), %r11
        cmpb    $0, %fs:(%r11)
        je      .Lcall
        movabsq $0x8000000000000000, %r11       /* SAMPLER_FRESH_COUNTDOWN */
        movl    $1, %eax                        /* a site: sampled, the next one too */
        cmpq    %r11, %rdi
        movabsq $-0x6000000000000000, %r11      /* SAMPLER_EVERY_COUNTDOWN */
        cmoveq  %r11, %rax                      /* a check: every trial succeeds */
        ret
        .cfi_endproc
        .size   __sampler_next_countdown_preserve_most, .-__sampler_next_countdown_preserve_most
#endif
        .section .note.GNU-stack,"",@progbits
