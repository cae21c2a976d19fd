; The branches scheme: every conditional branch gets a site with two cells
; [false, true]. Compiler-made branches (debug line 0) are not sites.
;
; Unconditional build: the observation is an if/else on the condition, each way
; adding 1 to its own constant cell (-sampler-observe-edges=auto, the default,
; is on where sampling is off). Jump threading then merges it with the
; program's branch on the same condition: `jg; addq $1, cell(%rip)`, no cell
; computed (Lua, zlib, bzip2: 16-31% fewer instructions, docs/benchmarks.md,
; "Branch sites observed on their edges"). The if/else takes the program
; branch's weights.
; RUN: %opt-sampler -passes=sampler -sampler-schemes=branches -sampler-sampling=off -S %s | FileCheck %s --check-prefixes=CHECK,EDGES
;
; Sampled build (auto: off), or -sampler-observe-edges=0: the condition (0/1)
; selects the cell, which one add takes. A sampled build's instrumented copy
; shares its function with the fast copy, whose register allocation the
; edges' blocks change (zlib +5.75% with sampling off).
; RUN: %opt-sampler -passes=sampler -sampler-schemes=branches -sampler-sampling=off -sampler-observe-edges=0 -S %s | FileCheck %s --check-prefixes=CHECK,CELL
; RUN: %opt-sampler -passes=sampler -sampler-schemes=branches -S %s | FileCheck %s --check-prefix=SAMPLED
; RUN: %opt-sampler -passes=sampler -sampler-schemes=branches -sampler-observe-edges=1 -S %s | FileCheck %s --check-prefix=SAMPLED-EDGES
; RUN: not %opt-sampler -passes=sampler -sampler-observe-edges=sometimes -disable-output %s 2>&1 | FileCheck %s --check-prefix=BAD

; CHECK: @__sampler_counters = internal global [4 x i64] zeroinitializer
; CHECK: @__sampler_site_table = private constant {{.*}} c"SAMPLER-SITES 1\0Aunit {{[0-9a-f]+}} 4 0\0Asource branches.c\0Asite 0\092\09branches\09branches.c\094\097\09max\09a > b\0Asite 2\092\09branches\09branches.c\0912\097\09rare\09p\0Aend\0A\00", section ".sampler_sites", align 1
; CHECK: @llvm.used = appending global {{.*}} @__sampler_site_table
; CHECK: @llvm.global_ctors = {{.*}} { i32 1, ptr @sampler.register_unit, ptr null }
; CHECK: @llvm.global_dtors = {{.*}} { i32 1, ptr @sampler.unregister_unit, ptr null }

; CHECK-LABEL: define i32 @max(
; CHECK:       %cmp = icmp sgt i32 %a, %b
; CHECK-NEXT:  br label %site.observe
; CHECK:     site.observe:
; EDGES-NEXT:  br i1 %cmp, label %site.true, label %site.false, !dbg {{![0-9]+$}}
; EDGES:     site.true:
; EDGES-NEXT:  atomicrmw add ptr getelementptr inbounds (i64, ptr @__sampler_counters, i64 1), i64 1 monotonic, align 8
; EDGES-NEXT:  br label %site.join
; EDGES:     site.false:
; EDGES-NEXT:  atomicrmw add ptr @__sampler_counters, i64 1 monotonic, align 8
; EDGES-NEXT:  br label %site.join
; EDGES:     site.join:
; CELL-NEXT:   [[IDX:%.*]] = zext i1 %cmp to i64
; CELL-NEXT:   [[CELL:%.*]] = add i64 [[IDX]], 0
; CELL-NEXT:   [[PTR:%.*]] = getelementptr inbounds i64, ptr @__sampler_counters, i64 [[CELL]]
; CELL-NEXT:   atomicrmw add ptr [[PTR]], i64 1 monotonic, align 8
; CHECK-NEXT:  br label %site.cont
; CHECK:     site.cont:
; CHECK-NEXT:  br i1 %cmp, label %then, label %else
; The artificial branch in %else is not a site:
; CHECK:     else:
; CHECK-NEXT:  br i1 %cmp, label %then, label %done
; CHECK-NOT: __sampler_site(

; A branch the program weights (__builtin_expect): the observation's if/else
; has the same weights, so its blocks are laid out as the program's.
; CHECK-LABEL: define i32 @rare(
; EDGES:       br i1 %p, label %site.true, label %site.false, !dbg {{.*}}, !prof [[W:![0-9]+]]
; EDGES:       br i1 %p, label %yes, label %no, !dbg {{.*}}, !prof [[W]]
; CELL-NOT:    site.true

; CHECK: define internal void @sampler.register_unit()
; CHECK-NEXT: call void @__sampler_register_unit(ptr @__sampler_unit)
; EDGES: [[W]] = !{!"branch_weights", i32 1, i32 2000}

; The instrumented copy's observation, by default and with edges.
; SAMPLED-LABEL: define internal i32 @max.sampler.slow(
; SAMPLED:     site.sampled:
; SAMPLED-NEXT:  zext i1 %cmp to i64
; SAMPLED-NOT:   site.true
; SAMPLED:     site.cont:
; SAMPLED-EDGES-LABEL: define internal i32 @max.sampler.slow(
; SAMPLED-EDGES:     site.sampled:
; SAMPLED-EDGES-NEXT:  br i1 %cmp, label %site.true, label %site.false
; SAMPLED-EDGES:     site.true:
; SAMPLED-EDGES-NEXT:  atomicrmw add ptr getelementptr inbounds (i64, ptr @__sampler_counters, i64 1), i64 1 monotonic

; BAD: sampler: option 'observe-edges' expects 'auto' or on/off (1/0), got 'sometimes'

source_filename = "branches.c"

define i32 @max(i32 %a, i32 %b) !dbg !5 {
entry:
  %cmp = icmp sgt i32 %a, %b, !dbg !8
  br i1 %cmp, label %then, label %else, !dbg !8
then:
  ret i32 %a
else:
  br i1 %cmp, label %then, label %done, !dbg !9
done:
  ret i32 %b
}

define i32 @rare(i1 %p) !dbg !10 {
entry:
  br i1 %p, label %yes, label %no, !dbg !11, !prof !12
yes:
  ret i32 1
no:
  ret i32 0
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3, !4}
!0 = distinct !DICompileUnit(language: DW_LANG_C11, file: !1, emissionKind: NoDebug)
!1 = !DIFile(filename: "branches.c", directory: "/src")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !{i32 7, !"Dwarf Version", i32 5}
!5 = distinct !DISubprogram(name: "max", scope: !1, file: !1, line: 3, type: !6, unit: !0, spFlags: DISPFlagDefinition)
!6 = !DISubroutineType(types: !7)
!7 = !{}
!8 = !DILocation(line: 4, column: 7, scope: !5)
!9 = !DILocation(line: 0, scope: !5)
!10 = distinct !DISubprogram(name: "rare", scope: !1, file: !1, line: 11, type: !6, unit: !0, spFlags: DISPFlagDefinition)
!11 = !DILocation(line: 12, column: 7, scope: !10)
!12 = !{!"branch_weights", i32 1, i32 2000}
