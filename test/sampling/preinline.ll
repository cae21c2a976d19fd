; Small functions with sites and a loop are inlined into their callers before
; the sampling transformation (PreInliner.h): once cloned in place they would
; be too big for the inliner. Bottom-up, within a size limit (here 46
; instructions as the schemes leave them); never a `noinline` callee; into a
; caller without a loop only while that caller stays small enough to be
; inlined in turn, and never into a recursive one (it would become a cloned
; function that nothing inlines). A local function left without callers goes.
; RUN: %opt-sampler -passes=sampler,verify -sampler-schemes=branches -sampler-preinline-limit=46 -pass-remarks=sampler-preinline -S %s 2>%t.remarks | FileCheck %s --implicit-check-not='define internal i32 @wrap(' --implicit-check-not='define internal i32 @count('
; RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
; RUN: %opt-sampler -passes=sampler,verify -sampler-schemes=branches -sampler-preinline-limit=0 -S %s | FileCheck %s --check-prefix=OFF
; A large caller (here over 20 instructions) takes only the calls inside its
; loops: @rounds keeps its call to @ext_count after the loop.
; RUN: %opt-sampler -passes=sampler -sampler-schemes=branches -sampler-preinline-limit=46 -sampler-preinline-large-caller=20 -pass-remarks=sampler-preinline -disable-output %s 2>&1 | FileCheck %s --check-prefix=LARGE
; LARGE:     inlined ext_count ({{[0-9]+}} instructions, a loop) into rounds before cloning
; LARGE-NOT: inlined ext_count ({{[0-9]+}} instructions, a loop) into rounds before cloning

; @count and @ext_count go into @rounds (a loop calling them, and @ext_count
; once more after it); @ext_count,
; external, stays defined (@count, local and inlined everywhere, does not);
; @kept is noinline, @big over the limit; @big_hinted, the same code declared
; `inline` (inlinehint), within twice the limit.
; CHECK-LABEL: define dso_local i32 @rounds(
; CHECK-NOT:     call {{.*}}@count(
; CHECK-NOT:     call {{.*}}@ext_count(
; CHECK-NOT:     call {{.*}}@big_hinted(
; CHECK:         call i32 @kept(
; CHECK:         call i32 @big(
; CHECK-NOT:     call {{.*}}@big_hinted(
; CHECK-NOT:     call {{.*}}@count(
; CHECK-NOT:     call {{.*}}@ext_count(
; CHECK:       {{^}}}

; @wrap (no loop) took @count while small, then went into @top itself.
; CHECK-LABEL: define dso_local i32 @top(
; CHECK-NOT:     call {{.*}}@wrap(
; CHECK-NOT:     call {{.*}}@count(
; CHECK:       {{^}}}

; @rec is recursive and has no loop: it keeps its call, small as it is.
; CHECK-LABEL: define dso_local i32 @rec(
; CHECK:         call i32 @ext_count(
; CHECK:       {{^}}}

; REMARK-DAG: remark: {{.*}} inlined ext_count ({{[0-9]+}} instructions, a loop) into rounds before cloning
; REMARK-DAG: remark: {{.*}} inlined count ({{[0-9]+}} instructions, a loop) into rounds before cloning
; REMARK-DAG: remark: {{.*}} inlined count ({{[0-9]+}} instructions, a loop) into wrap before cloning
; REMARK-DAG: remark: {{.*}} inlined wrap ({{[0-9]+}} instructions, a loop) into top before cloning
; REMARK-DAG: remark: {{.*}} inlined big_hinted ({{[0-9]+}} instructions, a loop) into rounds before cloning
; REMARK-NOT: kept
; REMARK-NOT: big {{.*}}
; REMARK-NOT: into rec

; Limit 0: nothing is inlined.
; OFF-LABEL:   define dso_local i32 @rounds(
; OFF:           call i32 @count(
; OFF:           call i32 @ext_count(
; OFF-LABEL:   define dso_local i32 @top(
; OFF:           call i32 @wrap(

define dso_local i32 @ext_count(ptr noundef %a, i32 noundef %n) {
entry:
  br label %for.cond

for.cond:
  %c.0 = phi i32 [ 0, %entry ], [ %add, %for.inc ]
  %i.0 = phi i32 [ 0, %entry ], [ %inc, %for.inc ]
  %cmp = icmp slt i32 %i.0, %n
  br i1 %cmp, label %for.body, label %for.cond.cleanup

for.cond.cleanup:
  br label %for.end

for.body:
  %idxprom = sext i32 %i.0 to i64
  %arrayidx = getelementptr inbounds i32, ptr %a, i64 %idxprom
  %0 = load i32, ptr %arrayidx, align 4
  %and = and i32 %0, 1
  %add = add nsw i32 %c.0, %and
  br label %for.inc

for.inc:
  %inc = add nsw i32 %i.0, 1
  br label %for.cond

for.end:
  ret i32 %c.0
}

define dso_local i32 @kept(ptr noundef %a, i32 noundef %n) noinline {
entry:
  br label %for.cond

for.cond:
  %c.0 = phi i32 [ 0, %entry ], [ %xor, %for.inc ]
  %i.0 = phi i32 [ 0, %entry ], [ %inc, %for.inc ]
  %cmp = icmp slt i32 %i.0, %n
  br i1 %cmp, label %for.body, label %for.cond.cleanup

for.cond.cleanup:
  br label %for.end

for.body:
  %idxprom = sext i32 %i.0 to i64
  %arrayidx = getelementptr inbounds i32, ptr %a, i64 %idxprom
  %0 = load i32, ptr %arrayidx, align 4
  %xor = xor i32 %c.0, %0
  br label %for.inc

for.inc:
  %inc = add nsw i32 %i.0, 1
  br label %for.cond

for.end:
  ret i32 %c.0
}

define dso_local i32 @big(ptr noundef %a, i32 noundef %n) {
entry:
  br label %for.cond

for.cond:
  %c.0 = phi i32 [ 0, %entry ], [ %add16, %for.inc ]
  %i.0 = phi i32 [ 0, %entry ], [ %inc, %for.inc ]
  %cmp = icmp slt i32 %i.0, %n
  br i1 %cmp, label %for.body, label %for.cond.cleanup

for.cond.cleanup:
  br label %for.end

for.body:
  %mul.a = mul nsw i32 %c.0, 31
  %mul.b = xor i32 %mul.a, 7
  %mul.c = add i32 %mul.b, 3
  %mul.d = xor i32 %mul.c, 11
  %mul = sub i32 %mul.d, 5
  %idxprom = sext i32 %i.0 to i64
  %arrayidx = getelementptr inbounds i32, ptr %a, i64 %idxprom
  %0 = load i32, ptr %arrayidx, align 4
  %idxprom1 = sext i32 %i.0 to i64
  %arrayidx2 = getelementptr inbounds i32, ptr %a, i64 %idxprom1
  %1 = load i32, ptr %arrayidx2, align 4
  %mul3 = mul nsw i32 %0, %1
  %add = add nsw i32 %mul, %mul3
  %idxprom4 = sext i32 %i.0 to i64
  %arrayidx5 = getelementptr inbounds i32, ptr %a, i64 %idxprom4
  %2 = load i32, ptr %arrayidx5, align 4
  %shr = ashr i32 %2, 3
  %sub = sub nsw i32 %add, %shr
  %shr6 = ashr i32 %c.0, 7
  %mul7 = mul nsw i32 %shr6, 5
  %add8 = add nsw i32 %sub, %mul7
  %idxprom9 = sext i32 %i.0 to i64
  %arrayidx10 = getelementptr inbounds i32, ptr %a, i64 %idxprom9
  %3 = load i32, ptr %arrayidx10, align 4
  %xor = xor i32 %3, %c.0
  %sub11 = sub nsw i32 %add8, %xor
  %rem = srem i32 %c.0, 13
  %idxprom12 = sext i32 %i.0 to i64
  %arrayidx13 = getelementptr inbounds i32, ptr %a, i64 %idxprom12
  %4 = load i32, ptr %arrayidx13, align 4
  %rem14 = srem i32 %4, 7
  %mul15 = mul nsw i32 %rem, %rem14
  %add16 = add nsw i32 %sub11, %mul15
  br label %for.inc

for.inc:
  %inc = add nsw i32 %i.0, 1
  br label %for.cond

for.end:
  ret i32 %c.0
}

define dso_local i32 @big_hinted(ptr noundef %a, i32 noundef %n) inlinehint {
entry:
  br label %for.cond

for.cond:
  %c.0 = phi i32 [ 0, %entry ], [ %add16, %for.inc ]
  %i.0 = phi i32 [ 0, %entry ], [ %inc, %for.inc ]
  %cmp = icmp slt i32 %i.0, %n
  br i1 %cmp, label %for.body, label %for.cond.cleanup

for.cond.cleanup:
  br label %for.end

for.body:
  %mul.a = mul nsw i32 %c.0, 31
  %mul.b = xor i32 %mul.a, 7
  %mul.c = add i32 %mul.b, 3
  %mul.d = xor i32 %mul.c, 11
  %mul = sub i32 %mul.d, 5
  %idxprom = sext i32 %i.0 to i64
  %arrayidx = getelementptr inbounds i32, ptr %a, i64 %idxprom
  %0 = load i32, ptr %arrayidx, align 4
  %idxprom1 = sext i32 %i.0 to i64
  %arrayidx2 = getelementptr inbounds i32, ptr %a, i64 %idxprom1
  %1 = load i32, ptr %arrayidx2, align 4
  %mul3 = mul nsw i32 %0, %1
  %add = add nsw i32 %mul, %mul3
  %idxprom4 = sext i32 %i.0 to i64
  %arrayidx5 = getelementptr inbounds i32, ptr %a, i64 %idxprom4
  %2 = load i32, ptr %arrayidx5, align 4
  %shr = ashr i32 %2, 3
  %sub = sub nsw i32 %add, %shr
  %shr6 = ashr i32 %c.0, 7
  %mul7 = mul nsw i32 %shr6, 5
  %add8 = add nsw i32 %sub, %mul7
  %idxprom9 = sext i32 %i.0 to i64
  %arrayidx10 = getelementptr inbounds i32, ptr %a, i64 %idxprom9
  %3 = load i32, ptr %arrayidx10, align 4
  %xor = xor i32 %3, %c.0
  %sub11 = sub nsw i32 %add8, %xor
  %rem = srem i32 %c.0, 13
  %idxprom12 = sext i32 %i.0 to i64
  %arrayidx13 = getelementptr inbounds i32, ptr %a, i64 %idxprom12
  %4 = load i32, ptr %arrayidx13, align 4
  %rem14 = srem i32 %4, 7
  %mul15 = mul nsw i32 %rem, %rem14
  %add16 = add nsw i32 %sub11, %mul15
  br label %for.inc

for.inc:
  %inc = add nsw i32 %i.0, 1
  br label %for.cond

for.end:
  ret i32 %c.0
}

define dso_local i32 @rounds(ptr noundef %a, i32 noundef %n, i32 noundef %r) {
entry:
  br label %for.cond

for.cond:
  %s.0 = phi i32 [ 0, %entry ], [ %add6, %for.inc ]
  %k.0 = phi i32 [ 0, %entry ], [ %inc, %for.inc ]
  %cmp = icmp slt i32 %k.0, %r
  br i1 %cmp, label %for.body, label %for.cond.cleanup

for.cond.cleanup:
  br label %for.end

for.body:
  %call = call i32 @count(ptr noundef %a, i32 noundef %n)
  %call1 = call i32 @ext_count(ptr noundef %a, i32 noundef %n)
  %add = add nsw i32 %call, %call1
  %call2 = call i32 @kept(ptr noundef %a, i32 noundef %n)
  %add3 = add nsw i32 %add, %call2
  %call4 = call i32 @big(ptr noundef %a, i32 noundef %n)
  %add5 = add nsw i32 %add3, %call4
  %call5 = call i32 @big_hinted(ptr noundef %a, i32 noundef %n)
  %add5b = add nsw i32 %add5, %call5
  %add6 = add nsw i32 %s.0, %add5b
  br label %for.inc

for.inc:
  %inc = add nsw i32 %k.0, 1
  br label %for.cond

for.end:
  %last = call i32 @ext_count(ptr noundef %a, i32 noundef %n)
  %res = add nsw i32 %s.0, %last
  ret i32 %res
}

define internal i32 @count(ptr noundef %a, i32 noundef %n) {
entry:
  br label %for.cond

for.cond:
  %c.0 = phi i32 [ 0, %entry ], [ %c.1, %for.inc ]
  %i.0 = phi i32 [ 0, %entry ], [ %inc2, %for.inc ]
  %cmp = icmp slt i32 %i.0, %n
  br i1 %cmp, label %for.body, label %for.cond.cleanup

for.cond.cleanup:
  br label %for.end

for.body:
  %idxprom = sext i32 %i.0 to i64
  %arrayidx = getelementptr inbounds i32, ptr %a, i64 %idxprom
  %0 = load i32, ptr %arrayidx, align 4
  %cmp1 = icmp sgt i32 %0, 0
  br i1 %cmp1, label %if.then, label %if.end

if.then:
  %inc = add nsw i32 %c.0, 1
  br label %if.end

if.end:
  %c.1 = phi i32 [ %inc, %if.then ], [ %c.0, %for.body ]
  br label %for.inc

for.inc:
  %inc2 = add nsw i32 %i.0, 1
  br label %for.cond

for.end:
  ret i32 %c.0
}

define dso_local i32 @top(ptr noundef %a, i32 noundef %n, i32 noundef %r) {
entry:
  br label %for.cond

for.cond:
  %s.0 = phi i32 [ 0, %entry ], [ %add, %for.inc ]
  %k.0 = phi i32 [ 0, %entry ], [ %inc, %for.inc ]
  %cmp = icmp slt i32 %k.0, %r
  br i1 %cmp, label %for.body, label %for.cond.cleanup

for.cond.cleanup:
  br label %for.end

for.body:
  %call = call i32 @wrap(ptr noundef %a, i32 noundef %n)
  %add = add nsw i32 %s.0, %call
  br label %for.inc

for.inc:
  %inc = add nsw i32 %k.0, 1
  br label %for.cond

for.end:
  ret i32 %s.0
}

define internal i32 @wrap(ptr noundef %a, i32 noundef %n) {
entry:
  %cmp = icmp sgt i32 %n, 8
  br i1 %cmp, label %cond.true, label %cond.false

cond.true:
  %call = call i32 @count(ptr noundef %a, i32 noundef %n)
  br label %cond.end

cond.false:
  br label %cond.end

cond.end:
  %cond = phi i32 [ %call, %cond.true ], [ 0, %cond.false ]
  ret i32 %cond
}

define dso_local i32 @rec(ptr noundef %a, i32 noundef %n) {
entry:
  %cmp = icmp sle i32 %n, 1
  br i1 %cmp, label %if.then, label %if.end

if.then:
  br label %return

if.end:
  %call = call i32 @ext_count(ptr noundef %a, i32 noundef %n)
  %add.ptr = getelementptr inbounds i32, ptr %a, i64 1
  %sub = sub nsw i32 %n, 1
  %call1 = call i32 @rec(ptr noundef %add.ptr, i32 noundef %sub)
  %add = add nsw i32 %call, %call1
  br label %return

return:
  %retval.0 = phi i32 [ 0, %if.then ], [ %add, %if.end ]
  ret i32 %retval.0
}
