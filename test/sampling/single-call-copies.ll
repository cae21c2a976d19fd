; A local function with one call keeps that call as its only one. The
; transformation copies @walk (its instrumented copy, the blocks `.slow`),
; and with it the call of @count: the copy's call goes to @count's own copy,
; @count.sampler.callee (noinline), so that the inliner still sees the fast
; copy's call as the last call to a static function (the bonus of 15,000
; that inlines it without sampler: lib/SingleCallLocals.cpp). @taken, whose address is also
; taken, has two uses to begin with: both copies call it.
; RUN: %opt-sampler -passes=sampler -sampler-schemes=branches -sampler-preinline-limit=0 -S %s | FileCheck %s --check-prefixes=CHECK,COPIES,NOTSMALL
; RUN: %opt-sampler -passes=sampler -sampler-schemes=branches -sampler-preinline-limit=0 -sampler-single-call-copies=false -S %s | FileCheck %s --check-prefixes=CHECK,SHARED
; @clamp's one call is outside @walk's loop: it keeps its one call only with
; -sampler-single-call-size-limit at or above its size as the schemes leave it
; (a dozen instructions), and only then does @walk's copy call a copy of it:
; RUN: %opt-sampler -passes=sampler -sampler-schemes=branches -sampler-preinline-limit=0 -sampler-single-call-size-limit=100 -S %s | FileCheck %s --check-prefixes=CHECK,COPIES,SMALL
; RUN: %opt-sampler -passes=sampler -sampler-schemes=branches -sampler-preinline-limit=0 -sampler-single-call-size-limit=3 -S %s | FileCheck %s --check-prefixes=CHECK,COPIES,NOTSMALL
; -sampler-single-call-max-size caps the size of a function given a copy,
; wherever its call: at 14, @clamp (a dozen instructions) keeps its copy and
; @count (a few more) gets none; at 10, neither does:
; RUN: %opt-sampler -passes=sampler -sampler-schemes=branches -sampler-preinline-limit=0 -sampler-single-call-size-limit=100 -sampler-single-call-max-size=14 -S %s | FileCheck %s --check-prefixes=CHECK,CAPPED,SMALL
; RUN: %opt-sampler -passes=sampler -sampler-schemes=branches -sampler-preinline-limit=0 -sampler-single-call-size-limit=100 -sampler-single-call-max-size=10 -S %s | FileCheck %s --check-prefixes=CHECK,CAPPED,NOTSMALL
; With the inliner at a threshold of 0, only a last call is inlined:
; RUN: %opt-sampler -passes='sampler,cgscc(inline)' -inline-threshold=0 -sampler-schemes=branches -sampler-preinline-limit=0 -S %s | FileCheck %s --check-prefix=INLINED
; RUN: %opt-sampler -passes='sampler,cgscc(inline)' -inline-threshold=0 -sampler-schemes=branches -sampler-preinline-limit=0 -sampler-single-call-copies=false -S %s | FileCheck %s --check-prefix=OUTOFLINE
; @clamp is a leaf of one region: with paid callees (paid-callees.ll) it needs
; no copy, whatever the limits: @walk's fast copy calls its body, the
; instrumented copy @clamp itself, once each.
; RUN: %opt-sampler -passes=sampler -sampler-schemes=branches -sampler-preinline-limit=0 -sampler-single-call-size-limit=100 -sampler-paid-callee-weight=8 -S %s | FileCheck %s --check-prefix=PAID
; PAID-LABEL: define i32 @walk(
; PAID:         %r2 = call i32 @clamp.sampler.body(
; PAID:         %r2.slow = call i32 @clamp(
; PAID-NOT:     @clamp.sampler.callee

; CHECK-LABEL: define i32 @walk(
; CHECK:       loop:
; CHECK:         %c = call i32 @count(ptr %s, i8 97)
; CHECK-NEXT:    %t = call i32 @taken(ptr %s, i8 98)
; CHECK:       done:
; CHECK:         %r2 = call i32 @clamp(
; CHECK:       loop.slow:
; COPIES:        %c.slow = call i32 @count.sampler.callee(ptr %s.slow, i8 97)
; SHARED:        %c.slow = call i32 @count(ptr %s.slow, i8 97)
; CAPPED:        %c.slow = call i32 @count(ptr %s.slow, i8 97)
; CHECK-NEXT:    %t.slow = call i32 @taken(ptr %s.slow, i8 98)
; CHECK:       done.slow:
; SMALL:         %r2.slow = call i32 @clamp.sampler.callee(
; NOTSMALL:      %r2.slow = call i32 @clamp(
; SHARED:        %r2.slow = call i32 @clamp(
; CHECK:       {{^}}}
; The copy is @count as the transformation left it (its fast and instrumented
; copies), private:
; COPIES:      define internal i32 @count.sampler.callee(ptr %s, i8 %c) unnamed_addr #[[COPY:[0-9]+]] {
; COPIES:      loop.slow:
; SMALL:       define internal i32 @clamp.sampler.callee(i32 %x) unnamed_addr
; The copy stays out of line (its calls are in instrumented copies), and
; names its original, for the merge at the end of the pipeline
; (single-call-merge.ll):
; COPIES:      attributes #[[COPY]] = { noinline "sampler-callee-copy-of"="count" }
; SHARED-NOT:  @count.sampler.callee
; CAPPED-NOT:  @count.sampler.callee
; NOTSMALL-NOT: @clamp.sampler.callee

; INLINED-LABEL: define i32 @walk(
; INLINED-NOT:     call i32 @count(
; INLINED:         call i32 @taken(ptr %s, i8 98)
; INLINED:         call i32 @count.sampler.callee(ptr %s.slow, i8 97)
; INLINED:       {{^}}}
; INLINED-NOT:   define internal i32 @count(

; OUTOFLINE:       define internal i32 @count(
; OUTOFLINE-LABEL: define i32 @walk(
; OUTOFLINE:         call i32 @count(ptr %s, i8 97)
; OUTOFLINE:         call i32 @count(ptr %s.slow, i8 97)

source_filename = "single-call-copies.c"

@keep = global ptr @taken

; Counts the bytes equal to %c in a string: a loop and a branch site.
define internal i32 @count(ptr %s, i8 %c) {
entry:
  br label %loop

loop:
  %p = phi ptr [ %s, %entry ], [ %next, %body ]
  %n = phi i32 [ 0, %entry ], [ %n2, %body ]
  %ch = load i8, ptr %p
  %end = icmp eq i8 %ch, 0
  br i1 %end, label %done, label %body

body:
  %same = icmp eq i8 %ch, %c
  %inc = zext i1 %same to i32
  %n2 = add i32 %n, %inc
  %next = getelementptr i8, ptr %p, i64 1
  br label %loop

done:
  ret i32 %n
}

; The same, but its address is taken too: two uses.
define internal i32 @taken(ptr %s, i8 %c) {
entry:
  br label %loop

loop:
  %p = phi ptr [ %s, %entry ], [ %next, %body ]
  %n = phi i32 [ 0, %entry ], [ %n2, %body ]
  %ch = load i8, ptr %p
  %end = icmp eq i8 %ch, 0
  br i1 %end, label %done, label %body

body:
  %same = icmp eq i8 %ch, %c
  %inc = zext i1 %same to i32
  %n2 = add i32 %n, %inc
  %next = getelementptr i8, ptr %p, i64 1
  br label %loop

done:
  ret i32 %n
}

; Sums count(s[i], 'a') over n strings: a loop, cloned in place.
define i32 @walk(ptr %v, i32 %n) {
entry:
  %any = icmp sgt i32 %n, 0
  br i1 %any, label %loop, label %done

loop:
  %i = phi i32 [ 0, %entry ], [ %i2, %loop ]
  %sum = phi i32 [ 0, %entry ], [ %sum2, %loop ]
  %slot = getelementptr ptr, ptr %v, i32 %i
  %s = load ptr, ptr %slot
  %c = call i32 @count(ptr %s, i8 97)
  %t = call i32 @taken(ptr %s, i8 98)
  %sum1 = add i32 %sum, %c
  %sum2 = add i32 %sum1, %t
  %i2 = add i32 %i, 1
  %more = icmp slt i32 %i2, %n
  br i1 %more, label %loop, label %done

done:
  %r = phi i32 [ 0, %entry ], [ %sum2, %loop ]
  %r2 = call i32 @clamp(i32 %r)
  ret i32 %r2
}

; Called once, after walk's loop: a branch site.
define internal i32 @clamp(i32 %x) {
entry:
  %big = icmp sgt i32 %x, 1000
  br i1 %big, label %cut, label %keep

cut:
  ret i32 1000

keep:
  ret i32 %x
}
