; The private copies sampler makes of a function (F.sampler.slow, F.sampler.twin,
; marked "sampler-instrumented-copy") join the comdat group of the functions that
; refer to them, when those are all in one group: the linker then keeps a copy
; only with the group it kept (lib/CopyComdat.cpp). Any other reference keeps a
; copy out. The mark tells the copies, not the name.
; RUN: %opt-sampler -passes=sampler-copy-comdat,verify -S %s | FileCheck %s
; Not on other object formats (Mach-O has no groups):
; RUN: sed 's/x86_64-pc-linux-gnu/x86_64-apple-macosx14.0.0/' %s \
; RUN:   | %opt-sampler -passes=sampler-copy-comdat -S | FileCheck %s --check-prefix=MACHO
; The whole pipeline runs it last: an inline C++ function of one region (kept
; by @keep), whose instrumented copy only it calls. (The pipeline instruments
; the other functions too; only @scale is checked.)
; RUN: %opt-sampler -passes='sampler,default<O2>' -S %s | FileCheck %s --check-prefix=PIPE

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

$only = comdat any
$shared = comdat any
$chain = comdat any
$other = comdat any
$scale = comdat any

@table = global ptr @taken.sampler.slow
@keep = global ptr @scale

; CHECK: define internal i32 @only.sampler.slow(i32 %x) #0 comdat($only)
; CHECK: define internal i32 @shared.sampler.slow(i32 %x) #0 {
; CHECK: define internal i32 @chain.sampler.twin(i32 %x) #0 comdat($chain)
; CHECK: define internal i32 @chain.sampler.slow(i32 %x) #0 comdat($chain)
; CHECK: define internal i32 @mixed.sampler.slow(i32 %x) #0 {
; CHECK: define internal i32 @taken.sampler.slow(i32 %x) #0 {
; CHECK: define internal i32 @helper(i32 %x) {
; CHECK: define internal i32 @renamed(i32 %x) #0 comdat($other)
; CHECK: define internal i32 @lookalike.sampler.slow(i32 %x) {
; MACHO: define internal i32 @only.sampler.slow(i32 %x) #0 {
; MACHO: define internal i32 @chain.sampler.twin(i32 %x) #0 {
; MACHO: define internal i32 @chain.sampler.slow(i32 %x) #0 {
; PIPE: define internal {{.*}}i32 @scale.sampler.slow(i32 {{.*}}%x) {{.*}}comdat($scale)

; Called only from its function: into its group.
define internal i32 @only.sampler.slow(i32 %x) #0 {
  ret i32 %x
}
define linkonce_odr i32 @only(i32 %x) comdat {
  %r = call i32 @only.sampler.slow(i32 %x)
  ret i32 %r
}

; Also called from a function outside any group (the function inlined there):
; a reference from outside a discarded group would not link.
define internal i32 @shared.sampler.slow(i32 %x) #0 {
  ret i32 %x
}
define linkonce_odr i32 @shared(i32 %x) comdat {
  %r = call i32 @shared.sampler.slow(i32 %x)
  ret i32 %r
}
define i32 @caller(i32 %x) {
  %r = call i32 @shared.sampler.slow(i32 %x)
  ret i32 %r
}

; Called only from a copy, itself called only from the group: both join (the
; callee comes first, so this takes a second round).
define internal i32 @chain.sampler.twin(i32 %x) #0 {
  ret i32 %x
}
define internal i32 @chain.sampler.slow(i32 %x) #0 {
  %r = call i32 @chain.sampler.twin(i32 %x)
  ret i32 %r
}
define linkonce_odr i32 @chain(i32 %x) comdat {
  %r = call i32 @chain.sampler.slow(i32 %x)
  ret i32 %r
}

; Called from functions of two groups: no single group to join.
define internal i32 @mixed.sampler.slow(i32 %x) #0 {
  ret i32 %x
}
define linkonce_odr i32 @other(i32 %x) comdat {
  %a = call i32 @mixed.sampler.slow(i32 %x)
  %b = call i32 @chain(i32 %a)
  ret i32 %b
}
define linkonce_odr i32 @mixed(i32 %x) comdat($only) {
  %r = call i32 @mixed.sampler.slow(i32 %x)
  ret i32 %r
}

; Its address in a global's initialiser: stays out.
define internal i32 @taken.sampler.slow(i32 %x) #0 {
  ret i32 %x
}
define linkonce_odr i32 @taken(i32 %x) comdat($only) {
  %r = call i32 @taken.sampler.slow(i32 %x)
  ret i32 %r
}

; Not a copy sampler made: left alone.
define internal i32 @helper(i32 %x) {
  ret i32 %x
}
define linkonce_odr i32 @uses_helper(i32 %x) comdat($other) {
  %r = call i32 @helper(i32 %x)
  ret i32 %r
}

; A copy whose name another pass changed: still a copy.
define internal i32 @renamed(i32 %x) #0 {
  ret i32 %x
}
define linkonce_odr i32 @uses_renamed(i32 %x) comdat($other) {
  %r = call i32 @renamed(i32 %x)
  ret i32 %r
}

; The program's own function that happens to look like a copy: left alone.
define internal i32 @lookalike.sampler.slow(i32 %x) {
  ret i32 %x
}
define linkonce_odr i32 @uses_lookalike(i32 %x) comdat($other) {
  %r = call i32 @lookalike.sampler.slow(i32 %x)
  ret i32 %r
}

; An inline function of one region (a branch site), as clang emits it.
define linkonce_odr i32 @scale(i32 noundef %x) comdat {
entry:
  %c = icmp sgt i32 %x, 3
  br i1 %c, label %big, label %small
big:
  %m = shl i32 %x, 1
  ret i32 %m
small:
  %s = add i32 %x, -1
  ret i32 %s
}

attributes #0 = { "sampler-instrumented-copy" }
