; Branch weights from earlier runs' counts (-sampler-feedback, lib/FeedbackWeights.h):
; the feedback file sums, cell by cell, the estimates of the runs of a unit named
; by its signature. A branch site's cells are [false, true], so its branch gets
; the weights [true + 1, false + 1]; a switch site's are [default, case 1, ...],
; its successors' order. A branch those runs never reached keeps what it had.
; The weights serve the checks on cold heavy ways as a profile's would.
; (-sampler-cold-optsize=0 in the RUN lines below that test which functions go
; in place: optsize, on by default, is tested on its own at the end.)
;
; The signature covers the module's identity, so it is read from a first run.
; RUN: %opt-sampler -passes=sampler-instrument -sampler-schemes=branches -S %s | sed -n 's/.*unit \([0-9a-f]\{32\}\) 23 .*/\1/p' > %t.sig
; RUN: printf 'sampler-feedback\t1\nruns\t2\nunit\t%%s\t23\tfeedback.ll\ncounts\t0:50 1:950 8:10 9:990 10:5 12:300\nend-of-feedback\n' $(cat %t.sig) > %t.feedback
; RUN: %opt-sampler -passes=sampler-instrument -sampler-schemes=branches -sampler-feedback=%t.feedback -sampler-cold-optsize=0 -sampler-cold-count=0 -S %s 2>%t.err | FileCheck %s
; RUN: count 0 < %t.err
; RUN: %opt-sampler -passes=sampler,verify -sampler-schemes=branches -sampler-clone-threshold=1 -sampler-outline-limit=0 -sampler-feedback=%t.feedback -sampler-cold-count=0 -pass-remarks=sampler-cold-heavy -disable-output %s 2>&1 | FileCheck %s --check-prefix=REMARK
;
; A file that names another unit (its sites changed since the runs): a warning,
; and the weights stay as they were.
; RUN: printf 'sampler-feedback\t1\nruns\t1\nunit\t0123456789abcdef0123456789abcdef\t23\tfeedback.ll\ncounts\t0:50 1:950\nend-of-feedback\n' > %t.other
; RUN: %opt-sampler -passes=sampler-instrument -sampler-schemes=branches -sampler-feedback=%t.other -S %s 2>&1 | FileCheck %s --check-prefix=OTHER
;
; A file that cannot be read, or is not a feedback file or a report: one line.
; RUN: not %opt-sampler -passes=sampler -sampler-feedback=%t.missing -disable-output %s 2>&1 | FileCheck %s --check-prefix=MISSING --match-full-lines
; RUN: printf 'sampler-feedback\t1\nruns\t1\nunit\t%%s\t23\tfeedback.ll\ncounts\t0:50 23:1\nend-of-feedback\n' $(cat %t.sig) > %t.bad
; RUN: not %opt-sampler -passes=sampler -sampler-feedback=%t.bad -disable-output %s 2>&1 | FileCheck %s --check-prefix=BAD --match-full-lines

; CHECK-LABEL: define i32 @walk(
; CHECK:         br i1 %c0, label %latch, label %t1, !prof [[C0:![0-9]+]]
; CHECK:         br i1 %c1, label %latch, label %t2{{$}}
; CHECK:         br i1 %c2, label %latch, label %t3{{$}}
; CHECK:         br i1 %c3, label %latch, label %hit, !prof [[KEPT:![0-9]+]]
; CHECK:         br i1 %more, label %head, label %exit, !prof [[MORE:![0-9]+]]
; CHECK-LABEL: define i32 @pick(
; CHECK:         switch i32 %x, label %other [
; CHECK:         ], !prof [[SW:![0-9]+]]
; CHECK-LABEL: define i32 @never(
; CHECK-SAME:    #[[NEVER:[0-9]+]]
; CHECK:       attributes #[[NEVER]] = { "sampler-cold" }
; CHECK-DAG:   [[C0]] = !{!"branch_weights", i32 951, i32 51}
; CHECK-DAG:   [[KEPT]] = !{!"branch_weights", i32 1, i32 99}
; CHECK-DAG:   [[MORE]] = !{!"branch_weights", i32 991, i32 11}
; CHECK-DAG:   [[SW]] = !{!"branch_weights", i32 6, i32 1, i32 301}
; REMARK: remark: <unknown>:0:0: a branch's way of 3 sites more, taken 5% of the time, gets a check of its own
; REMARK-NOT: remark
; OTHER: sampler: warning: {{.*}}.other has no counts for unit {{[0-9a-f]+}} ({{.*}}feedback.ll): not in the program those runs came from, or its sites or the path it is compiled as differ; its branches keep their weights
; OTHER: br i1 %c0, label %latch, label %t1{{$}}
; OTHER: br i1 %c3, label %latch, label %hit, !prof
; MISSING: sampler: option 'feedback': cannot read '{{.*}}.missing': No such file or directory
; BAD: sampler: option 'feedback': {{.*}}.bad:4: cell index 23 out of range (unit has 23 cells)
define i32 @walk(ptr %p, i32 %n) {
entry:
  br label %head
head:
  %i = phi i32 [ 0, %entry ], [ %i1, %latch ]
  %v0 = load volatile i32, ptr %p
  %c0 = icmp eq i32 %v0, 0
  br i1 %c0, label %latch, label %t1
t1:
  %v1 = load volatile i32, ptr %p
  %c1 = icmp eq i32 %v1, 1
  br i1 %c1, label %latch, label %t2
t2:
  %v2 = load volatile i32, ptr %p
  %c2 = icmp eq i32 %v2, 2
  br i1 %c2, label %latch, label %t3
t3:
  %v3 = load volatile i32, ptr %p
  %c3 = icmp eq i32 %v3, 3
  br i1 %c3, label %latch, label %hit, !prof !0
hit:
  store volatile i32 7, ptr %p
  br label %latch
latch:
  %i1 = add i32 %i, 1
  %more = icmp slt i32 %i1, %n
  br i1 %more, label %head, label %exit
exit:
  ret i32 %i1
}

define i32 @pick(i32 %x) {
entry:
  switch i32 %x, label %other [
    i32 1, label %one
    i32 2, label %two
  ]
one:
  ret i32 10
two:
  ret i32 20
other:
  ret i32 0
}

!0 = !{!"branch_weights", i32 1, i32 99}

; A cold function is not cloned: its sites are lowered in place, one countdown
; test each (-sampler-cold-in-place). Cold: its hottest site ran at most
; -sampler-cold-count times a run, on average over the file's runs (2 here).
; With 0, only @never and @chain, which never ran; with 400, also @pick (305
; executions: 152.5 a run). By default (1,000) @walk (its loop test 1,000: 500
; a run) is cold too, but its sites are in a loop: it stays cloned, for a
; workload unlike those runs' may run it hot, and in place each iteration would
; pay a test a site. -sampler-cold-loops-in-place lowers it in place, when its
; loop's 5 sites, counted once, are within -sampler-cold-path-sites.
; RUN: %opt-sampler -passes=sampler-instrument -sampler-schemes=branches -sampler-feedback=%t.feedback -sampler-cold-optsize=0 -sampler-cold-count=400 -S %s | FileCheck %s --check-prefix=COUNT400
; RUN: %opt-sampler -passes=sampler-instrument -sampler-schemes=branches -sampler-feedback=%t.feedback -sampler-cold-optsize=0 -S %s | FileCheck %s --check-prefix=DEFAULT
; RUN: %opt-sampler -passes=sampler-instrument -sampler-schemes=branches -sampler-feedback=%t.feedback -sampler-cold-optsize=0 -sampler-cold-loops-in-place -sampler-cold-path-sites=5 -S %s | FileCheck %s --check-prefix=LOOPS
; RUN: %opt-sampler -passes=sampler-instrument -sampler-schemes=branches -sampler-feedback=%t.feedback -sampler-cold-optsize=0 -sampler-cold-loops-in-place -sampler-cold-path-sites=0 -S %s | FileCheck %s --check-prefix=LOOPS
; RUN: %opt-sampler -passes=sampler-instrument -sampler-schemes=branches -sampler-feedback=%t.feedback -sampler-cold-optsize=0 -sampler-cold-loops-in-place -sampler-cold-path-sites=4 -S %s | FileCheck %s --check-prefix=LOOPS4
; COUNT400: define i32 @walk(ptr %p, i32 %n) {
; COUNT400: define i32 @pick(i32 %x) #[[COLD:[0-9]+]] {
; COUNT400: define i32 @never(i32 %x, i32 %y) #[[COLD]] {
; COUNT400: attributes #[[COLD]] = { "sampler-cold" }
; DEFAULT: define i32 @walk(ptr %p, i32 %n) {
; DEFAULT: define i32 @pick(i32 %x) #[[COLD:[0-9]+]] {
; DEFAULT: define i32 @never(i32 %x, i32 %y) #[[COLD]] {
; LOOPS: define i32 @walk(ptr %p, i32 %n) #[[COLD:[0-9]+]] {
; LOOPS: define i32 @pick(i32 %x) #[[COLD]] {
; LOOPS: define i32 @never(i32 %x, i32 %y) #[[COLD]] {
; LOOPS4: define i32 @walk(ptr %p, i32 %n) {
; LOOPS4: define i32 @pick(i32 %x) #[[COLD:[0-9]+]] {
; RUN: %opt-sampler -passes=sampler,verify -sampler-schemes=branches -sampler-clone-threshold=1 -sampler-outline-limit=0 -sampler-feedback=%t.feedback -S %s | FileCheck %s --check-prefix=UNREACHED
; RUN: %opt-sampler -passes=sampler,verify -sampler-schemes=branches -sampler-clone-threshold=1 -sampler-outline-limit=0 -sampler-feedback=%t.feedback -sampler-cold-in-place=0 -S %s | FileCheck %s --check-prefix=CLONED
; UNREACHED-LABEL: define i32 @never(
; UNREACHED-NOT:   {{sampler.check|sampler.to.slow}}
; UNREACHED:       %countdown.fire = icmp slt i64 %countdown.dec, 0
; UNREACHED-NOT:   {{sampler.check|sampler.to.slow}}
; UNREACHED:       {{^}}}
; CLONED-LABEL:    define i32 @never(
; CLONED:          call i32 @never.sampler.slow(
define i32 @never(i32 %x, i32 %y) {
entry:
  %c = icmp sgt i32 %x, %y
  br i1 %c, label %a, label %b
a:
  ret i32 1
b:
  ret i32 2
}

; A cold function that one call can cross two sites of stays cloned by default
; (-sampler-cold-path-sites=1): in place such a call pays two tests where the
; clone pays one check, and a workload unlike the runs' may call it often (Lua's
; parser, run once by the training workload). Within a limit of 2, or with none
; (0), it is lowered in place.
; RUN: %opt-sampler -passes=sampler-instrument -sampler-schemes=branches -sampler-feedback=%t.feedback -sampler-cold-optsize=0 -sampler-cold-path-sites=2 -S %s | FileCheck %s --check-prefix=PATH2
; RUN: %opt-sampler -passes=sampler-instrument -sampler-schemes=branches -sampler-feedback=%t.feedback -sampler-cold-optsize=0 -sampler-cold-path-sites=0 -S %s | FileCheck %s --check-prefix=PATH2
; @spin's path crosses a loop without sites between its two (the branches
; scheme does not observe an indirectbr): the loop does not keep it cloned, and
; its two sites count as @chain's do.
; DEFAULT: define i32 @chain(i32 %x, i32 %y) {
; DEFAULT: define i32 @spin(ptr %p, i32 %x) {
; LOOPS: define i32 @chain(i32 %x, i32 %y) #[[COLD]] {
; LOOPS: define i32 @spin(ptr %p, i32 %x) #[[COLD]] {
; PATH2: define i32 @never(i32 %x, i32 %y) #[[COLD:[0-9]+]] {
; PATH2: define i32 @chain(i32 %x, i32 %y) #[[COLD]] {
; PATH2: define i32 @spin(ptr %p, i32 %x) #[[COLD]] {
define i32 @chain(i32 %x, i32 %y) {
entry:
  %c = icmp sgt i32 %x, 0
  br i1 %c, label %a, label %b
a:
  br label %b
b:
  %d = icmp sgt i32 %y, 0
  br i1 %d, label %one, label %two
one:
  ret i32 1
two:
  ret i32 2
}

define i32 @spin(ptr %p, i32 %x) {
entry:
  %c = icmp sgt i32 %x, 0
  br i1 %c, label %wait, label %done
wait:
  %v = load volatile i32, ptr %p
  %again = icmp ne i32 %v, 0
  %to = select i1 %again, ptr blockaddress(@spin, %wait), ptr blockaddress(@spin, %last)
  indirectbr ptr %to, [label %wait, label %last]
last:
  %d = icmp sgt i32 %x, 9
  br i1 %d, label %done, label %other
done:
  ret i32 1
other:
  ret i32 2
}

; Every function the runs found cold is optimised for size (-sampler-cold-optsize,
; on by default), whether it goes in place or stays cloned: by default all five
; here (@walk's hottest site ran 500 times a run, within -sampler-cold-count's
; 1,000). With -sampler-cold-count=0 only those that never ran:
; @walk and @pick keep their attributes as they were. Off, none is.
; RUN: %opt-sampler -passes=sampler-instrument -sampler-schemes=branches -sampler-feedback=%t.feedback -S %s | FileCheck %s --check-prefix=OPTSIZE
; RUN: %opt-sampler -passes=sampler-instrument -sampler-schemes=branches -sampler-feedback=%t.feedback -sampler-cold-count=0 -S %s | FileCheck %s --check-prefix=OPTSIZE0
; RUN: %opt-sampler -passes=sampler-instrument -sampler-schemes=branches -sampler-feedback=%t.feedback -sampler-cold-optsize=0 -S %s | FileCheck %s --check-prefix=NOOPTSIZE
; OPTSIZE: define i32 @walk(ptr %p, i32 %n) #[[SMALL:[0-9]+]] {
; OPTSIZE: define i32 @pick(i32 %x) #[[SMALLCOLD:[0-9]+]] {
; OPTSIZE: define i32 @never(i32 %x, i32 %y) #[[SMALLCOLD]] {
; OPTSIZE: define i32 @chain(i32 %x, i32 %y) #[[SMALL]] {
; OPTSIZE: define i32 @spin(ptr %p, i32 %x) #[[SMALL]] {
; OPTSIZE-DAG: attributes #[[SMALL]] = { optsize }
; OPTSIZE-DAG: attributes #[[SMALLCOLD]] = { optsize "sampler-cold" }
; OPTSIZE0: define i32 @walk(ptr %p, i32 %n) {
; OPTSIZE0: define i32 @pick(i32 %x) {
; OPTSIZE0: define i32 @never(i32 %x, i32 %y) #[[SMALLCOLD:[0-9]+]] {
; OPTSIZE0: define i32 @chain(i32 %x, i32 %y) #[[SMALL:[0-9]+]] {
; OPTSIZE0-DAG: attributes #[[SMALL]] = { optsize }
; OPTSIZE0-DAG: attributes #[[SMALLCOLD]] = { optsize "sampler-cold" }
; NOOPTSIZE-NOT: optsize
