/*===- next_countdown_x86_64.S - the runtime's draws, preserve_most ------===
 *
 * The entry points instrumented code calls on x86-64 when a countdown reaches
 * zero: __sampler_fire's (a site that may be sampled) and
 * __sampler_next_countdown's (a check asking for a fresh countdown). Each keeps
 * every general-purpose register but r11 (LLVM's preserve_most convention), so
 * that the call, which sits in the instrumented copy of a function, does not
 * force the function to save callee-saved registers on its fast path: a leaf
 * function stays a leaf. (XMM registers are not preserved under preserve_most:
 * the caller saves those it needs.)
 *
 * Three ways through each:
 *
 * - The draw here. A started thread of the primary copy drawing from the run's
 *   table (countdown.c's fast path: the same conditions, the same generator
 *   step, the same table search, the same answers) saves the two registers it
 *   needs, not the seven that the C code may clobber, and makes no call: about
 *   40 instructions a site's draw and 36 a check's, where saving seven registers
 *   around the C code took about 60. At d = 100 instrumented programs call here
 *   once every few hundred instructions, so this is most of what sampling costs
 *   there beyond the checks. Its rare cases (a countdown beyond the table, a fresh trial
 *   sampled) call countdown.c with the number it drew.
 * - d = 1 in a started thread that draws directly (countdown.c's
 *   __sampler_rt_every_direct and __sampler_rt_every_thread): the answer, with
 *   no draw at all.
 * - Everything else (a thread's first call, sampling off, a bank, a copy that
 *   forwards its draws, d above 2^20): the C code, the caller-saved registers
 *   it may clobber saved around it.
 *
 * Since ABI 5 instrumented code calls two entry points that take no argument
 * register, so that the function calling them need not move what it keeps in
 * rdi (a function's first argument) into a callee-saved register for the
 * rare call (lib/EntryTwin.h): __sampler_fresh_countdown_preserve_most, a
 * check's fresh countdown (the argument SAMPLER_FRESH_COUNTDOWN implied), and
 * __sampler_fire_tls_preserve_most, a site's draw whose argument the caller
 * stored in the thread-local __sampler_fire_unknown. Since ABI 6 a site calls
 * __sampler_fire_rax from inline assembly instead (lib/SamplingTransform.cpp's
 * fireAsm): the argument negated in rax, the answer |r| in rax and r > 0 in
 * the carry flag, so that the site's cold code is a lea, the call, a lea and
 * the jump on the flag. It pushes its argument first and pops it into r11 on
 * the way out; it is called wherever the caller's stack pointer happens to be,
 * so its ways into the C code align the stack themselves, and they turn the C
 * answer's word into its answer with one shift. The same macro makes all
 * five; ARG says where the argument is: rdi (reg), implied (fresh), the
 * thread-local (tls) or rax (rax). Only the ways into the C code load it into
 * rdi (saved there anyway); the draw here reads it where it decides.
 *
 * countdown.c's unit tests replay each entry point against the C code, whatever
 * the density, checking the registers it must keep.
 *===----------------------------------------------------------------------===*/
#if defined(__x86_64__) && defined(__linux__)

#include "draw_layout.h"

#define FRESH_COUNTDOWN 0x8000000000000000 /* SAMPLER_FRESH_COUNTDOWN */
#define EVERY_COUNTDOWN -0x6000000000000000 /* SAMPLER_EVERY_COUNTDOWN */

/* The thread's generator, s[0..3] (r11 the thread-local block's offset), and the
 * run's table (r11 its address, once the generator has stepped), at the offsets
 * that countdown.c checks. */
#define S(i) %fs:(SAMPLER_TS_RNG + 8 * (i))(%r11)
#define BOUND(k) SAMPLER_GT_BOUND(%r11, k, 8)

.macro PUSH reg
        pushq   \reg
        .cfi_adjust_cfa_offset 8
.endm
.macro POP reg
        popq    \reg
        .cfi_adjust_cfa_offset -8
.endm

/* rdi = the argument, for the C code, in an entry point whose argument is not
 * in rdi (rdi saved by the caller of this macro). */
.macro LOAD_ARG arg
        .ifc \arg, fresh
        movabsq $FRESH_COUNTDOWN, %rdi
        .endif
        .ifc \arg, tls
        movq    __sampler_fire_unknown@gottpoff(%rip), %rdi
        movq    %fs:(%rdi), %rdi
        .endif
        .ifc \arg, rax
        movq    56(%rsp), %rdi  /* above the seven registers saved */
        negq    %rdi
        .endif
.endm

/* A way out of the draw here (the two registers it saved restored); the code
 * after it is reached with them saved. */
.macro RETURN arg=reg
        POP     %rdx
        POP     %rcx
        .ifc \arg, rax
        POP     %r11            /* the argument */
        ret
        .cfi_adjust_cfa_offset 24
        .else
        ret
        .cfi_adjust_cfa_offset 16
        .endif
.endm

/* A way out with nothing else saved; the code after it is reached as the entry
 * point's first instruction left it (in the entry point whose argument is in
 * rax, with that argument pushed: above the seven registers the C calls save). */
.macro RETURN_TO_ENTRY arg
        .ifc \arg, rax
        POP     %r11
        ret
        .cfi_adjust_cfa_offset 8
        .else
        ret
        .endif
.endm

/* A call of the C function FN with the argument in rdi. The entry point whose
 * argument is in rax is called from inline assembly, with the stack aligned
 * anyhow: it aligns the stack itself, and turns the C answer, one word
 * 2 |r| + (r > 0), into its own: |r| in rax, r > 0 in CF. */
.macro CALL_C arg, fn
        .ifc \arg, rax
        PUSH    %rbp
        .cfi_rel_offset %rbp, 0
        movq    %rsp, %rbp
        .cfi_def_cfa_register %rbp
        andq    $-16, %rsp
        call    \fn
        movq    %rbp, %rsp
        .cfi_def_cfa_register %rsp
        POP     %rbp
        .cfi_restore %rbp
        shrq    $1, %rax
        .else
        call    \fn
        .endif
.endm

/* The entry point NAME. The draw here leaves its countdown g (from 1 to the
 * table's size) in rax, the argument where ARG says, and goes on into ANSWER,
 * a macro that answers (RETURN) or jumps to 8f (a fresh trial sampled: SAMPLED,
 * a C function of the argument). LARGE: the C function of the argument and m
 * when the table does not hold the countdown. IMPL: the C entry point, for the
 * general case. EVERY: a macro, the d = 1 answer. The answers fall through
 * where they can: every jump and register saved on the draw's way is an
 * instruction of every call (at d = 100 the draws are 12% to 23% of what the
 * uninstrumented Lua, bzip2 and zlib execute). */
.macro DRAW_ENTRY name, impl, large, sampled, arg, answer, every
        .text
        .p2align 4
        .globl  \name
        .hidden __sampler_rt_thread_state
        .hidden __sampler_rt_geo_table
        .type   \name,@function
\name:
        .cfi_startproc
        .ifc \arg, rax
        PUSH    %rax
        .endif
        /* countdown.c's fast path: t->direct && run_kmax != 0 (a plain load is an
         * acquire load on x86-64). */
        movq    __sampler_rt_thread_state@gottpoff(%rip), %r11
        cmpl    $0, %fs:SAMPLER_TS_DIRECT(%r11)
        je      .Lgeneral\@
        movq    __sampler_rt_geo_table+SAMPLER_GT_RUN_KMAX(%rip), %rax
        testq   %rax, %rax
        je      .Lno_table\@
        PUSH    %rcx
        PUSH    %rdx
        /* xoshiro256** (countdown.c's __sampler_rt_rng_next) with two registers,
         * rax keeping kmax: s3 ^= s1, s2 ^= s0, s1 ^= s2, s0 ^= s3, s2 ^= s1 << 17
         * (s1 before), s3 = rotl(s3, 45), in place; the result rotl(s1 * 5, 7) * 9
         * in rdx. */
        movq    S(1), %rcx
        xorq    %rcx, S(3)
        movq    S(0), %rdx
        xorq    %rdx, S(2)
        movq    S(2), %rdx
        xorq    %rdx, S(1)
        movq    S(3), %rdx
        xorq    %rdx, S(0)
        movq    %rcx, %rdx
        shlq    $17, %rdx
        xorq    %rdx, S(2)
        rolq    $45, S(3)
        leaq    (%rcx,%rcx,4), %rdx
        rolq    $7, %rdx
        leaq    (%rdx,%rdx,8), %rdx
        /* m, the top 53 bits: beyond the table when below bound[kmax]; else the
         * least k with bound[k] <= m, from its slice's guide up. */
        shrq    $11, %rdx
        leaq    __sampler_rt_geo_table(%rip), %r11
        cmpq    BOUND(%rax), %rdx
        jb      .Llarge\@
        movq    %rdx, %rcx
        shrq    $(53 - SAMPLER_GUIDE_BITS), %rcx
        movzwl  SAMPLER_GT_GUIDE(%r11,%rcx,2), %eax
        cmpq    BOUND(%rax), %rdx
        jae     .Lfound\@
.Lstep\@:
        addq    $1, %rax
        cmpq    BOUND(%rax), %rdx
        jb      .Lstep\@
.Lfound\@:
        \answer
.Llarge\@:
        /* 2 registers pushed; 5 more keep the stack aligned for the call (in
         * the entry point whose argument is in rax, CALL_C aligns it). */
        PUSH    %rsi
        PUSH    %rdi
        PUSH    %r8
        PUSH    %r9
        PUSH    %r10
        LOAD_ARG \arg
        movq    %rdx, %rsi
        CALL_C  \arg, \large
        jmp     9f
        .cfi_adjust_cfa_offset -40
8:      PUSH    %rsi
        PUSH    %rdi
        PUSH    %r8
        PUSH    %r9
        PUSH    %r10
        LOAD_ARG \arg
        CALL_C  \arg, \sampled
9:      POP     %r10
        POP     %r9
        POP     %r8
        POP     %rdi
        POP     %rsi
        POP     %rdx
        POP     %rcx
        RETURN_TO_ENTRY \arg
.Lgeneral\@:
        /* The C code may clobber any caller-saved register: save the seven that
         * preserve_most keeps (7 pushes after the return address: the stack is
         * 16-byte aligned; in the entry point whose argument is in rax, CALL_C
         * aligns it). */
        PUSH    %rcx
        PUSH    %rdx
        PUSH    %rsi
        PUSH    %rdi
        PUSH    %r8
        PUSH    %r9
        PUSH    %r10
        LOAD_ARG \arg
        CALL_C  \arg, \impl
        POP     %r10
        POP     %r9
        POP     %r8
        POP     %rdi
        POP     %rsi
        POP     %rdx
        POP     %rcx
        RETURN_TO_ENTRY \arg
.Lno_table\@:
        /* d = 1, answered here once the C code has seen this thread (its
         * alternate signal stack in place). */
        cmpb    $0, __sampler_rt_every_direct(%rip)
        je      .Lgeneral\@
        movq    __sampler_rt_every_thread@gottpoff(%rip), %r11
        cmpb    $0, %fs:(%r11)
        je      .Lgeneral\@
        \every
        .cfi_endproc
        .size   \name, .-\name
.endm

/* Checks (and the sites of code built before ABI 4): a check (FRESH_COUNTDOWN)
 * is told g - 1, a site that owns the success g, a fresh trial -(g - 1), or, if
 * it is sampled (g = 1), the next gap. At d = 1 a check is told EVERY_COUNTDOWN,
 * a site that it is sampled and so is the next one (1). */
.macro NEXT_ANSWER
        movabsq $FRESH_COUNTDOWN, %rcx
        cmpq    %rcx, %rdi
        je      6f
        testq   %rdi, %rdi
        jne     4f
        RETURN                  /* owned: g */
4:      cmpq    $1, %rax
        je      8f
        negq    %rax            /* a fresh trial, not sampled: -(g - 1) */
        addq    $1, %rax
        RETURN
6:      addq    $-1, %rax       /* a check: g - 1 */
        RETURN
.endm
.macro NEXT_EVERY
        movabsq $FRESH_COUNTDOWN, %r11
        movl    $1, %eax
        cmpq    %r11, %rdi
        movabsq $EVERY_COUNTDOWN, %r11
        cmoveq  %r11, %rax
        ret
.endm
DRAW_ENTRY __sampler_next_countdown_preserve_most, __sampler_next_countdown_impl, \
           __sampler_rt_next_large, __sampler_rt_next_fresh_sampled, reg, \
           NEXT_ANSWER, NEXT_EVERY

/* A site's answer, the flags set by a test of its argument (zero: this execution
 * owns the success). */
.macro FIRE_ANSWER
        jne     6f
        leaq    1(%rax,%rax), %rax      /* owned: 2 g + 1 */
        RETURN
6:      cmpq    $1, %rax
        je      8f
        leaq    -2(%rax,%rax), %rax     /* a fresh trial, not sampled: 2 (g - 1) */
        RETURN
.endm
/* At d = 1: sampled, the next one too: 2 * 1 + 1. */
.macro FIRE_EVERY
        movl    $3, %eax
        ret
.endm

/* Sites: the same draw in one word, 2 |r| + (r > 0). */
.macro FIRE_REG_ANSWER
        testq   %rdi, %rdi
        FIRE_ANSWER
.endm
DRAW_ENTRY __sampler_fire_preserve_most, __sampler_fire_impl, \
           __sampler_rt_fire_large, __sampler_rt_fire_fresh_sampled, reg, \
           FIRE_REG_ANSWER, FIRE_EVERY

/* A check's fresh countdown (ABI 5): __sampler_next_countdown_preserve_most's
 * answers to SAMPLER_FRESH_COUNTDOWN, the argument implied: g - 1, or at d = 1
 * EVERY_COUNTDOWN. */
.macro FRESH_ANSWER
        addq    $-1, %rax       /* g - 1 */
        RETURN
.endm
.macro FRESH_EVERY
        movabsq $EVERY_COUNTDOWN, %rax
        ret
.endm
DRAW_ENTRY __sampler_fresh_countdown_preserve_most, __sampler_next_countdown_impl, \
           __sampler_rt_next_large, __sampler_rt_next_fresh_sampled, fresh, \
           FRESH_ANSWER, FRESH_EVERY

/* A site's draw (ABI 5): __sampler_fire_preserve_most's answers, its argument in
 * the thread-local __sampler_fire_unknown. */
.macro FIRE_TLS_ANSWER
        movq    __sampler_fire_unknown@gottpoff(%rip), %rcx
        cmpq    $0, %fs:(%rcx)
        FIRE_ANSWER
.endm
DRAW_ENTRY __sampler_fire_tls_preserve_most, __sampler_fire_impl, \
           __sampler_rt_fire_large, __sampler_rt_fire_fresh_sampled, tls, \
           FIRE_TLS_ANSWER, FIRE_EVERY

/* A site's draw (ABI 6), called from inline assembly: the argument negated in
 * rax (cd - Key, so that the caller computes it with one lea); the answer |r| in
 * rax and r > 0 in CF, so that the caller's new countdown is one lea and its
 * test the branch itself. Besides r11 it keeps every register but rax and the
 * flags (and the vector registers, as preserve_most), needs no stack alignment,
 * and uses the stack below the caller's (which must not use a red zone). */
.macro FIRE_RAX_ANSWER
        cmpq    $0, 16(%rsp)    /* the argument, above rcx and rdx */
        jne     6f
        stc                     /* owned: g, sampled */
        RETURN  rax
6:      cmpq    $1, %rax
        je      8f
        subq    $1, %rax        /* a fresh trial, not sampled: g - 1 (CF clear: g >= 2) */
        RETURN  rax
.endm
.macro FIRE_RAX_EVERY
        movl    $1, %eax        /* sampled, the next one too */
        stc
        POP     %r11
        ret
.endm
DRAW_ENTRY __sampler_fire_rax, __sampler_fire_impl, \
           __sampler_rt_fire_large, __sampler_rt_fire_fresh_sampled, rax, \
           FIRE_RAX_ANSWER, FIRE_RAX_EVERY

#endif
        .section .note.GNU-stack,"",@progbits
