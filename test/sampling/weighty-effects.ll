; Declared memory effects of weighty code (lib/WeightyEffects.h). A function
; with sites declared to write no memory (C's `const`, `memory(none)`) or to
; only read it (`pure`, `memory(read)`) takes trials from the thread-local
; countdown and writes counters all the same: it and every call of it get the
; program's nameable memory ("other": globals, thread-locals) read and written,
; so that the optimiser neither moves the countdown across its calls nor
; merges or drops them. The rest of what they declared stays (argument and
; inaccessible memory). So does a function without sites that calls one
; (@wraps: weighty), a declaration not known weightless (@ext, another unit's
; function) and an indirect call. Left as declared: a function without sites
; (@square) and a C library function (@abs), which reach no site.
; RUN: %opt-sampler -passes=sampler -sampler-schemes=branches -S %s | FileCheck %s
; RUN: %opt-sampler -passes=sampler -sampler-schemes=branches -sampler-sampling=false -S %s | FileCheck %s

; CHECK: define i32 @cf(i1 %a) #[[CONST:[0-9]+]]
; CHECK: define i32 @pf(ptr %p) #[[PURE:[0-9]+]]
; CHECK: define i32 @square(i32 %v) #[[NONE:[0-9]+]]
; CHECK: define i32 @wraps(i1 %a) #[[CONST]]
; CHECK: call i32 @cf(i1 %a) #[[CONSTCALL:[0-9]+]]
; CHECK: declare i32 @ext(i32) #[[CONST]]
; CHECK: declare i32 @abs(i32) #[[NONE]]
; CHECK-LABEL: define i32 @caller(
; CHECK:   call i32 @cf(i1 %a) #[[CONSTCALL]]
; CHECK:   call i32 @pf(ptr %p) #[[PURECALL:[0-9]+]]
; CHECK:   call i32 @square(i32 %n) #[[NONECALL:[0-9]+]]
; CHECK:   call i32 @wraps(i1 %a){{$}}
; CHECK:   call i32 @ext(i32 %n) #[[CONSTCALL]]
; CHECK:   call i32 @abs(i32 %n) #[[NONECALL]]
; CHECK:   call i32 %fp(i32 %n) #[[CONSTCALL]]
; CHECK-DAG: attributes #[[CONST]] = { {{.*}}memory(readwrite, argmem: none, inaccessiblemem: none) }
; CHECK-DAG: attributes #[[PURE]] = { {{.*}}memory(readwrite, argmem: read, inaccessiblemem: read) }
; CHECK-DAG: attributes #[[NONE]] = { nounwind willreturn memory(none) }
; CHECK-DAG: attributes #[[CONSTCALL]] = { memory(readwrite, argmem: none, inaccessiblemem: none) }
; CHECK-DAG: attributes #[[PURECALL]] = { memory(readwrite, argmem: read, inaccessiblemem: read) }
; CHECK-DAG: attributes #[[NONECALL]] = { memory(none) }

define i32 @cf(i1 %a) nounwind willreturn memory(none) {
entry:
  br i1 %a, label %x, label %y
x:
  ret i32 1
y:
  ret i32 0
}

define i32 @pf(ptr %p) nounwind willreturn memory(read) {
entry:
  %v = load i32, ptr %p
  %c = icmp sgt i32 %v, 3
  br i1 %c, label %x, label %y
x:
  ret i32 1
y:
  ret i32 0
}

define i32 @square(i32 %v) nounwind willreturn memory(none) {
  %s = mul i32 %v, %v
  ret i32 %s
}

define i32 @wraps(i1 %a) nounwind willreturn memory(none) {
  %r = call i32 @cf(i1 %a) memory(none)
  ret i32 %r
}

declare i32 @ext(i32) nounwind willreturn memory(none)
declare i32 @abs(i32) nounwind willreturn memory(none)

define i32 @caller(i1 %a, ptr %p, ptr %fp, i32 %n) nounwind {
entry:
  %c1 = call i32 @cf(i1 %a) memory(none)
  %c2 = call i32 @pf(ptr %p) memory(read)
  %c3 = call i32 @square(i32 %n) memory(none)
  %c4 = call i32 @wraps(i1 %a)
  %c5 = call i32 @ext(i32 %n) memory(none)
  %c6 = call i32 @abs(i32 %n) memory(none)
  %c7 = call i32 %fp(i32 %n) memory(none)
  %s1 = add i32 %c1, %c2
  %s2 = add i32 %s1, %c3
  %s3 = add i32 %s2, %c4
  %s4 = add i32 %s3, %c5
  %s5 = add i32 %s4, %c6
  %s6 = add i32 %s5, %c7
  ret i32 %s6
}
