; The branches scheme, unconditional build: every conditional branch gets a
; site with two cells [false, true]; the observation adds the condition (0/1)
; to the site's first cell. Compiler-made branches (debug line 0) are not sites.
; RUN: %opt-sampler -passes=sampler -sampler-schemes=branches -sampler-sampling=off -S %s | FileCheck %s

; CHECK: @__sampler_counters = internal global [2 x i64] zeroinitializer
; CHECK: @__sampler_site_table = private constant {{.*}} c"SAMPLER-SITES 1\0Aunit {{[0-9a-f]+}} 2 0\0Asource branches.c\0Asite 0\092\09branches\09branches.c\094\097\09max\09a > b\0Aend\0A\00", section ".sampler_sites", align 1
; CHECK: @llvm.used = appending global {{.*}} @__sampler_site_table
; CHECK: @llvm.global_ctors = {{.*}} { i32 1, ptr @sampler.register_unit, ptr null }
; CHECK: @llvm.global_dtors = {{.*}} { i32 1, ptr @sampler.unregister_unit, ptr null }

; CHECK-LABEL: define i32 @max(
; CHECK:       %cmp = icmp sgt i32 %a, %b
; CHECK-NEXT:  br label %site.observe
; CHECK:     site.observe:
; CHECK-NEXT:  [[IDX:%.*]] = zext i1 %cmp to i64
; CHECK-NEXT:  [[CELL:%.*]] = add i64 [[IDX]], 0
; CHECK-NEXT:  [[PTR:%.*]] = getelementptr inbounds i64, ptr @__sampler_counters, i64 [[CELL]]
; CHECK-NEXT:  atomicrmw add ptr [[PTR]], i64 1 monotonic, align 8
; CHECK-NEXT:  br label %site.cont
; CHECK:     site.cont:
; CHECK-NEXT:  br i1 %cmp, label %then, label %else
; The artificial branch in %else is not a site:
; CHECK:     else:
; CHECK-NEXT:  br i1 %cmp, label %then, label %done
; CHECK-NOT: __sampler_site(

; CHECK: define internal void @sampler.register_unit()
; CHECK-NEXT: call void @__sampler_register_unit(ptr @__sampler_unit)

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
