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
 *   step, the same table search, the same answers) saves the one register it
 *   needs beyond rax and r11 (rdx, the multiply's), not the seven that the C
 *   code may clobber, and makes no call: about 25 instructions a site's draw
 *   and 21.5 a check's (callgrind, Lua at d = 100; the generator's step is 7 of
 *   them), where saving seven registers around the C code took about 60. At
 *   d = 100 instrumented programs call here once every few hundred
 *   instructions, so this is most of what sampling costs there beyond the
 *   checks. Its rare cases (a countdown beyond the table, a fresh trial
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
 * the jump on the flag. It pushes its argument first (unless it is 0: a site
 * that owns its success, OWNED_DRAW) and pops it into r11 on the way out; it
 * is called wherever the caller's stack pointer happens to be, so its ways into
 * the C code align the stack themselves, and they turn the C answer's word into
 * its answer with one shift. The same macro makes all five; ARG says where the
 * argument is: rdi (reg), implied (fresh), the thread-local (tls) or rax (rax).
 * Only the ways into the C code load it into rdi (saved there anyway); the draw
 * here reads it where it decides.
 *
 * countdown.c's unit tests replay each entry point against the C code, whatever
 * the density, checking the registers it must keep.
 *===----------------------------------------------------------------------===*/
#if defined(__x86_64__) && defined(__linux__)

#include "draw_layout.h"

#define FRESH_COUNTDOWN 0x8000000000000000 /* SAMPLER_FRESH_COUNTDOWN */
#define EVERY_COUNTDOWN -0x6000000000000000 /* SAMPLER_EVERY_COUNTDOWN */
/* The state CALL_C keeps: x87 (0), SSE (1), AVX (2), AVX-512 (5, 6, 7). */
#define VECTOR_STATE 0xe7

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

/* The five caller-saved registers that preserve_most keeps beyond rcx and rdx, saved
 * around the C code (after rcx; the draw here saves rdx itself). */
.macro PUSH_FIVE
        PUSH    %rsi
        PUSH    %rdi
        PUSH    %r8
        PUSH    %r9
        PUSH    %r10
.endm
.macro POP_FIVE
        POP     %r10
        POP     %r9
        POP     %r8
        POP     %rdi
        POP     %rsi
.endm

/* rdi = the argument, for the C code, in an entry point whose argument is not
 * in rdi (rdi saved by the caller of this macro). */
.macro LOAD_ARG arg
        .ifc \arg, fresh
        movabsq $FRESH_COUNTDOWN, %rdi
        .endif
        .ifc \arg, fresh_all
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

/* A way out of the draw here (the register it saved restored); the code after
 * it is reached with it saved. */
.macro RETURN arg=reg
        POP     %rdx
        .ifc \arg, rax
        POP     %r11            /* the argument */
        ret
        .cfi_adjust_cfa_offset 16
        .else
        ret
        .cfi_adjust_cfa_offset 8
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
 * 2 |r| + (r > 0), into its own: |r| in rax, r > 0 in CF. Since ABI 7 it also
 * keeps the vector and x87 registers, whole (the upper halves of AVX registers
 * and AVX-512's included), as the dynamic linker's lazy binding does: XSAVE
 * around the C code (FXSAVE where the system enables no XSAVE state), so that
 * the caller's assembly names no vector register among its clobbers. Each named
 * clobber costs the backend a search of every register of every class, for
 * every site: with sixteen of them, 12% of what compiling Lua's lvm.c executes.
 * The C code runs rarely (a thread's first draw, sampling off, a countdown
 * beyond the table, a fresh trial sampled); the save is its cost only. rcx and
 * rdx are saved by every way here; rdi and rsi hold the C arguments. */
.macro CALL_C arg, fn
        .ifc \arg, rax
        CALL_C_ALL \fn, 1
        .else
        .ifc \arg, fresh_all
        CALL_C_ALL \fn, 0
        .else
        call    \fn
        .endif
        .endif
.endm

/* CALL_C for the entry points called from inline assembly: FN with the stack
 * aligned here and the vector state saved around it; SHIFT: the C answer is
 * __sampler_fire's word, turned into |r| (r > 0 in CF). */
.macro CALL_C_ALL fn, shift
        PUSH    %rbp
        .cfi_rel_offset %rbp, 0
        movq    %rsp, %rbp
        .cfi_def_cfa_register %rbp
        movl    __sampler_rt_vector_area(%rip), %eax
        testl   %eax, %eax
        jnz     1f
        call    __sampler_rt_vector_area_size
1:      andq    $-64, %rsp
        subq    %rax, %rsp
        movl    $VECTOR_STATE, %eax
        xorl    %edx, %edx
        cmpb    $0, __sampler_rt_vector_xsave(%rip)
        je      2f
        /* XRSTOR faults unless the header's reserved bytes are zero, and
         * XSAVE writes only its first eight. */
        xorl    %ecx, %ecx
        movq    %rcx, 512(%rsp)
        movq    %rcx, 520(%rsp)
        movq    %rcx, 528(%rsp)
        movq    %rcx, 536(%rsp)
        movq    %rcx, 544(%rsp)
        movq    %rcx, 552(%rsp)
        movq    %rcx, 560(%rsp)
        movq    %rcx, 568(%rsp)
        xsave64 (%rsp)
        call    \fn
        movq    %rax, %rcx
        movl    $VECTOR_STATE, %eax
        xorl    %edx, %edx
        xrstor64 (%rsp)
        jmp     3f
2:      fxsave64 (%rsp)
        call    \fn
        movq    %rax, %rcx
        fxrstor64 (%rsp)
3:      movq    %rcx, %rax
        movq    %rbp, %rsp
        .cfi_def_cfa_register %rsp
        POP     %rbp
        .cfi_restore %rbp
        .if \shift
        shrq    $1, %rax
        .endif
.endm

/* The draw from the run's table: the generator's step, then its output x in rdx and
 * its countdown g (from 1 to the table's size) in rax, or a jump to LARGE with x in rdx
 * when the table does not hold it; r11 the thread-local block's offset on the way in,
 * the table's address on the way out; rdx saved by the caller of this macro, which
 * needs no other register than rax, rdx and r11. */
.macro DRAW_TABLE large
        /* The generator (countdown.c's __sampler_rt_rng_next): s = s * a mod 2^128,
         * s = hi:lo; the result, the new hi, in rdx: lo * a in rdx:rax, plus the low
         * word of hi * a. The multiplier is loaded twice, so that no third register
         * is saved for it (as many instructions as loading it once and copying it). */
        movabsq $SAMPLER_MCG_MULTIPLIER, %rax
        mulq    S(0)
        movq    %rax, S(0)
        movabsq $SAMPLER_MCG_MULTIPLIER, %rax
        imulq   S(1), %rax
        addq    %rax, %rdx
        movq    %rdx, S(1)
        /* x, the output: g is the least k with bound[k] <= x (the bounds are kept in
         * x's units, multiples of 2^11, so that x is compared as it is: that of its
         * top 53 bits, m, which the formula takes, is the same), searched from the
         * guide of x's slice up, without reading the table's size. Past the table's
         * last bound the bounds are 0 (countdown.c's geo_table): where x is below
         * every bound of the table, the search stops at that 0 and goes to LARGE,
         * as it does in the rare table whose last bound is 0 itself (the C code's
         * formula gives the same answer).
         *
         * A thread may grow the table meanwhile (once a thread has started the table
         * only grows: the options are loaded once, before; unit tests that load them
         * again do so between draws, and the thread that loads them clears its
         * flag). It writes each new bound once, where there was a 0, before the guide
         * entries that lead to it (x86-64 does not reorder stores with stores, nor
         * loads with loads). So a guide entry leads to a bound that is written, and a
         * bound that the step up reads is either final or 0. A 0 read in the loop may
         * be written by the time the bound is read again: if it is 0 still, the C
         * code computes g; if it is written now and above x, the search goes on (a
         * first version took k then, a countdown too small). */
        leaq    __sampler_rt_geo_table(%rip), %r11
        movq    %rdx, %rax
        shrq    $(64 - SAMPLER_GUIDE_BITS), %rax
        movzwl  SAMPLER_GT_GUIDE(%r11,%rax,2), %eax
        cmpq    BOUND(%rax), %rdx
        jae     .Lfound\@
.Lstep\@:
        addq    $1, %rax
        cmpq    BOUND(%rax), %rdx
        jb      .Lstep\@
        cmpq    $0, BOUND(%rax)
        je      \large
        cmpq    BOUND(%rax), %rdx
        jb      .Lstep\@
.Lfound\@:
.endm

/* The entry point NAME. The draw here leaves its countdown g (from 1 to the
 * table's size) in rax, the argument where ARG says, and goes on into ANSWER,
 * a macro that answers (RETURN) or jumps to 8f (a fresh trial sampled: SAMPLED,
 * a C function of the argument). LARGE: the C function of the argument and x
 * when the table does not hold the countdown. IMPL: the C entry point, for the
 * general case. EVERY: a macro, the d = 1 answer. The answers fall through
 * where they can: every jump and register saved on the draw's way is an
 * instruction of every call (at d = 100 the draws were 12% to 23% of what the
 * uninstrumented Lua, bzip2 and zlib execute when a draw took about 40
 * instructions; about 6% of Lua's at 25).
 *
 * The way into the draw here is one test of the thread's flag (countdown.c's
 * from_table): set below, the first time this thread finds itself started and
 * drawing directly with the run's table (countdown.c's fast path: t->direct &&
 * run_kmax != 0); the entry point then starts again.
 *
 * The entry point whose argument is in rax first tells a site that owns its
 * success (argument 0, two thirds of the draws: Lua at d = 100) from a fresh
 * trial: the owned one draws without pushing its argument and answers without
 * reading it back (OWNED_DRAW); the other goes on below, the argument pushed. */
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
        OWNED_DRAW \large, .Lpush\@, .Lowned_slow\@
.Lowned_slow\@:
        PUSH    %rax
        jmp     .Lslow\@
        .cfi_adjust_cfa_offset -8
.Lpush\@:
        PUSH    %rax
        .endif
        movq    __sampler_rt_thread_state@gottpoff(%rip), %r11
        cmpl    $0, %fs:SAMPLER_TS_FROM_TABLE(%r11)
        je      .Lslow\@
        PUSH    %rdx
        DRAW_TABLE .Llarge\@
        \answer
.Llarge\@:
        /* rdx pushed; rcx and 5 more keep the stack aligned for the call (in the
         * entry point whose argument is in rax, CALL_C aligns it). */
        PUSH    %rcx
        PUSH_FIVE
        LOAD_ARG \arg
        movq    %rdx, %rsi
        CALL_C  \arg, \large
        jmp     9f
        .cfi_adjust_cfa_offset -48
8:      PUSH    %rcx
        PUSH_FIVE
        LOAD_ARG \arg
        CALL_C  \arg, \sampled
9:      POP_FIVE
        POP     %rcx
        POP     %rdx
        RETURN_TO_ENTRY \arg
.Lgeneral\@:
        /* The C code may clobber any caller-saved register: save the seven that
         * preserve_most keeps (7 pushes after the return address: the stack is
         * 16-byte aligned; in the entry point whose argument is in rax, CALL_C
         * aligns it). */
        PUSH    %rcx
        PUSH    %rdx
        PUSH_FIVE
        LOAD_ARG \arg
        CALL_C  \arg, \impl
        POP_FIVE
        POP     %rdx
        POP     %rcx
        RETURN_TO_ENTRY \arg
.Lslow\@:
        /* The flag not set: countdown.c's fast path's conditions (a plain load is
         * an acquire load on x86-64); when they hold, the flag is set and the
         * entry point starts again (the argument where it found it). */
        cmpl    $0, %fs:SAMPLER_TS_DIRECT(%r11)
        je      .Lgeneral\@
        cmpq    $0, __sampler_rt_geo_table+SAMPLER_GT_RUN_KMAX(%rip)
        je      .Lno_table\@
        movl    $1, %fs:SAMPLER_TS_FROM_TABLE(%r11)
        .ifc \arg, rax
        POP     %rax
        .endif
        jmp     \name
        .ifc \arg, rax
        .cfi_adjust_cfa_offset 8
        .endif
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

/* A site whose argument (in rax) is 0, this execution owning its success, drawn
 * with the argument neither pushed nor read back: sampled (CF set), the next
 * success g later (rax). Any other argument goes on to FRESH, a thread whose flag is
 * not set to UNSET (r11 loaded), each with rax and the stack as they came: so the
 * draw after FRESH is never an owned one's, and its answer need not test the
 * argument. LARGE: the C function, called with 0 and x. */
.macro OWNED_DRAW large, fresh, unset
        testq   %rax, %rax
        jnz     \fresh
        movq    __sampler_rt_thread_state@gottpoff(%rip), %r11
        cmpl    $0, %fs:SAMPLER_TS_FROM_TABLE(%r11)
        je      \unset
        PUSH    %rdx
        DRAW_TABLE .Lowned_large\@
        stc
        POP     %rdx
        ret
        .cfi_adjust_cfa_offset 8
.Lowned_large\@:
        PUSH    %rcx
        PUSH_FIVE
        xorl    %edi, %edi
        movq    %rdx, %rsi
        CALL_C_ALL \large, 1
        POP_FIVE
        POP     %rcx
        POP     %rdx
        ret
.endm

/* Checks (and the sites of code built before ABI 4): a check (FRESH_COUNTDOWN)
 * is told g - 1, a site that owns the success g, a fresh trial -(g - 1), or, if
 * it is sampled (g = 1), the next gap. At d = 1 a check is told EVERY_COUNTDOWN,
 * a site that it is sampled and so is the next one (1). */
.macro NEXT_ANSWER
        movabsq $FRESH_COUNTDOWN, %r11
        cmpq    %r11, %rdi
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

/* A check's fresh countdown (since ABI 8), called from inline assembly
 * (lib/SamplingTransform.cpp's freshAsm): the same answers in rax, with every
 * other register kept but r11 and the flags, the vector registers too (CALL_C),
 * and no stack alignment needed, as __sampler_fire_rax_all. The check's way
 * into the instrumented copy is then one statement and one edge, where a call
 * under preserve_most (which keeps no vector register) made three blocks and a
 * join. */
DRAW_ENTRY __sampler_fresh_rax_all, __sampler_next_countdown_impl, \
           __sampler_rt_next_large, __sampler_rt_next_fresh_sampled, fresh_all, \
           FRESH_ANSWER, FRESH_EVERY

/* A site's draw (ABI 5): __sampler_fire_preserve_most's answers, its argument in
 * the thread-local __sampler_fire_unknown. */
.macro FIRE_TLS_ANSWER
        movq    __sampler_fire_unknown@gottpoff(%rip), %r11
        cmpq    $0, %fs:(%r11)
        FIRE_ANSWER
.endm
DRAW_ENTRY __sampler_fire_tls_preserve_most, __sampler_fire_impl, \
           __sampler_rt_fire_large, __sampler_rt_fire_fresh_sampled, tls, \
           FIRE_TLS_ANSWER, FIRE_EVERY

/* A site's draw (since ABI 6), called from inline assembly: the argument negated
 * in rax (cd - Key, so that the caller computes it with one lea); the answer |r|
 * in rax and r > 0 in CF, so that the caller's new countdown is one lea and its
 * test the branch itself. It keeps every register but rax, r11 and the flags
 * (since ABI 7 the vector registers too: CALL_C), needs no stack alignment, and
 * uses the stack below the caller's (which must not use a red zone). */
.macro FIRE_RAX_ANSWER
        /* A fresh trial (an owned one draws in OWNED_DRAW) */
        cmpq    $1, %rax
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
/* ABI 7's name for it: the same entry point, which since ABI 7 keeps the vector
 * registers too (CALL_C), so that code that names none of them among the
 * assembly's clobbers does not link with a runtime that would not keep them.
 * (ABI 6 code, which names them, may call either.) */
        .globl  __sampler_fire_rax_all
        .type   __sampler_fire_rax_all,@function
        .set    __sampler_fire_rax_all, __sampler_fire_rax

/* The bytes CALL_C saves the vector state in. Where the system enables XSAVE
 * (CPUID leaf 1: ECX bit 27, OSXSAVE), XSAVE's standard area for the x87, SSE,
 * AVX and AVX-512 state the system enables (XCR0 & VECTOR_STATE; each component's
 * offset and size from CPUID leaf 0xD), at least its legacy area and header (576
 * bytes), rounded up to 64; else 512, FXSAVE's. Not the other components (AMX's
 * tiles alone are 8 KiB, and compiled code keeps no value in them across a call).
 * Computed by the first call, in assembly (C code could clobber the registers not
 * yet saved); the answer is the same in every thread, so threads that race store
 * the same values, __sampler_rt_vector_xsave first. Returns it in eax; keeps
 * every other register but the flags. */
        .text
        .p2align 4
        .type   __sampler_rt_vector_area_size,@function
__sampler_rt_vector_area_size:
        .cfi_startproc
        PUSH    %rbx
        .cfi_rel_offset %rbx, 0
        PUSH    %rcx
        PUSH    %rdx
        PUSH    %rsi
        PUSH    %rdi
        movl    $1, %eax
        cpuid
        movl    $512, %eax
        btl     $27, %ecx
        jnc     3f
        xorl    %ecx, %ecx
        xgetbv                          /* edx:eax = XCR0 */
        andl    $(VECTOR_STATE & ~3), %eax
        movl    %eax, %esi              /* the components beyond the legacy area */
        movl    $576, %edi
1:      bsfl    %esi, %ecx
        jz      2f
        btrl    %ecx, %esi
        movl    $0xd, %eax
        cpuid                           /* subleaf ecx: eax its size, ebx its offset */
        addl    %ebx, %eax
        cmpl    %edi, %eax
        cmoval  %eax, %edi
        jmp     1b
2:      leal    63(%rdi), %eax
        andl    $-64, %eax
        movb    $1, __sampler_rt_vector_xsave(%rip)
3:      movl    %eax, __sampler_rt_vector_area(%rip)
        POP     %rdi
        POP     %rsi
        POP     %rdx
        POP     %rcx
        POP     %rbx
        .cfi_restore %rbx
        ret
        .cfi_endproc
        .size   __sampler_rt_vector_area_size, .-__sampler_rt_vector_area_size

        .bss
        .globl  __sampler_rt_vector_area
        .hidden __sampler_rt_vector_area
        .globl  __sampler_rt_vector_xsave
        .hidden __sampler_rt_vector_xsave
        .p2align 2
        .type   __sampler_rt_vector_area,@object
__sampler_rt_vector_area:
        .zero   4
        .size   __sampler_rt_vector_area, 4
        .type   __sampler_rt_vector_xsave,@object
__sampler_rt_vector_xsave:
        .zero   1
        .size   __sampler_rt_vector_xsave, 1
        .text

#endif
        .section .note.GNU-stack,"",@progbits
