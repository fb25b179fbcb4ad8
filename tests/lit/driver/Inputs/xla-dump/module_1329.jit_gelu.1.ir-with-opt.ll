; ModuleID = 'LLVMDialectModule'
source_filename = "LLVMDialectModule"
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; Function Attrs: nounwind
define ptx_kernel void @gelu_fusion(ptr noalias nofree readonly align 16 captures(none) dereferenceable(25165824) %0, ptr noalias nofree writeonly align 256 captures(none) dereferenceable(25165824) %1) local_unnamed_addr #0 {
  %3 = addrspacecast ptr %0 to ptr addrspace(1)
  %4 = addrspacecast ptr %1 to ptr addrspace(1)
  tail call void @llvm.nvvm.griddepcontrol.wait()
  %5 = tail call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x(), !range !4
  %6 = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !range !5
  %7 = shl nuw nsw i32 %6, 2
  %8 = shl nuw nsw i32 %5, 9
  %9 = or disjoint i32 %7, %8
  %10 = zext nneg i32 %9 to i64
  %11 = getelementptr inbounds [2 x i8], ptr addrspace(1) %3, i64 %10
  %12 = load <4 x bfloat>, ptr addrspace(1) %11, align 8, !invariant.load !6
  %13 = extractelement <4 x bfloat> %12, i64 0
  %14 = fmul bfloat %13, %13
  %15 = fmul bfloat %13, %14
  %16 = fmul bfloat %15, 4.467770e-02
  %17 = fadd bfloat %13, %16
  %18 = fmul bfloat %17, 7.968750e-01
  %19 = fpext bfloat %18 to float
  %20 = tail call float @llvm.nvvm.fabs.f32(float %19)
  %21 = fmul float %20, 2.885390e+00
  %22 = tail call float @llvm.nvvm.ex2.approx.ftz.f32(float %21)
  %23 = fadd float %22, 1.000000e+00
  %24 = tail call float asm "rcp.approx.ftz.f32 $0,$1;", "=f,f"(float %23) #6, !srcloc !7
  %25 = tail call float @llvm.fma.f32(float %24, float -2.000000e+00, float 1.000000e+00)
  %26 = fcmp oge float %20, f0x41102CB4
  %s.0.i = select i1 %26, float 1.000000e+00, float %25
  %27 = tail call float @llvm.copysign.f32(float %s.0.i, float %19) #1
  %28 = fmul float %19, %19
  %29 = tail call float @llvm.fma.f32(float %28, float f0x3C80F082, float f0xBD563CAE)
  %30 = tail call float @llvm.fma.f32(float %29, float %28, float f0x3E085941)
  %31 = tail call float @llvm.fma.f32(float %30, float %28, float f0xBEAAA9ED)
  %32 = tail call float @llvm.fma.f32(float %31, float %28, float 0.000000e+00)
  %33 = tail call float @llvm.fma.f32(float %32, float %19, float %19)
  %34 = fcmp oge float %20, 6.000000e-01
  %.01.i = select i1 %34, float %27, float %33
  %35 = fptrunc float %.01.i to bfloat
  %36 = fadd bfloat %35, 1.000000e+00
  %37 = fmul bfloat %36, 5.000000e-01
  %38 = fmul bfloat %13, %37
  %39 = extractelement <4 x bfloat> %12, i64 1
  %40 = fmul bfloat %39, %39
  %41 = fmul bfloat %39, %40
  %42 = fmul bfloat %41, 4.467770e-02
  %43 = fadd bfloat %39, %42
  %44 = fmul bfloat %43, 7.968750e-01
  %45 = fpext bfloat %44 to float
  %46 = tail call float @llvm.nvvm.fabs.f32(float %45)
  %47 = fmul float %46, 2.885390e+00
  %48 = tail call float @llvm.nvvm.ex2.approx.ftz.f32(float %47)
  %49 = fadd float %48, 1.000000e+00
  %50 = tail call float asm "rcp.approx.ftz.f32 $0,$1;", "=f,f"(float %49) #6, !srcloc !7
  %51 = tail call float @llvm.fma.f32(float %50, float -2.000000e+00, float 1.000000e+00)
  %52 = fcmp oge float %46, f0x41102CB4
  %s.0.i1 = select i1 %52, float 1.000000e+00, float %51
  %53 = tail call float @llvm.copysign.f32(float %s.0.i1, float %45) #1
  %54 = fmul float %45, %45
  %55 = tail call float @llvm.fma.f32(float %54, float f0x3C80F082, float f0xBD563CAE)
  %56 = tail call float @llvm.fma.f32(float %55, float %54, float f0x3E085941)
  %57 = tail call float @llvm.fma.f32(float %56, float %54, float f0xBEAAA9ED)
  %58 = tail call float @llvm.fma.f32(float %57, float %54, float 0.000000e+00)
  %59 = tail call float @llvm.fma.f32(float %58, float %45, float %45)
  %60 = fcmp oge float %46, 6.000000e-01
  %.01.i2 = select i1 %60, float %53, float %59
  %61 = fptrunc float %.01.i2 to bfloat
  %62 = fadd bfloat %61, 1.000000e+00
  %63 = fmul bfloat %62, 5.000000e-01
  %64 = fmul bfloat %39, %63
  %65 = extractelement <4 x bfloat> %12, i64 2
  %66 = fmul bfloat %65, %65
  %67 = fmul bfloat %65, %66
  %68 = fmul bfloat %67, 4.467770e-02
  %69 = fadd bfloat %65, %68
  %70 = fmul bfloat %69, 7.968750e-01
  %71 = fpext bfloat %70 to float
  %72 = tail call float @llvm.nvvm.fabs.f32(float %71)
  %73 = fmul float %72, 2.885390e+00
  %74 = tail call float @llvm.nvvm.ex2.approx.ftz.f32(float %73)
  %75 = fadd float %74, 1.000000e+00
  %76 = tail call float asm "rcp.approx.ftz.f32 $0,$1;", "=f,f"(float %75) #6, !srcloc !7
  %77 = tail call float @llvm.fma.f32(float %76, float -2.000000e+00, float 1.000000e+00)
  %78 = fcmp oge float %72, f0x41102CB4
  %s.0.i3 = select i1 %78, float 1.000000e+00, float %77
  %79 = tail call float @llvm.copysign.f32(float %s.0.i3, float %71) #1
  %80 = fmul float %71, %71
  %81 = tail call float @llvm.fma.f32(float %80, float f0x3C80F082, float f0xBD563CAE)
  %82 = tail call float @llvm.fma.f32(float %81, float %80, float f0x3E085941)
  %83 = tail call float @llvm.fma.f32(float %82, float %80, float f0xBEAAA9ED)
  %84 = tail call float @llvm.fma.f32(float %83, float %80, float 0.000000e+00)
  %85 = tail call float @llvm.fma.f32(float %84, float %71, float %71)
  %86 = fcmp oge float %72, 6.000000e-01
  %.01.i4 = select i1 %86, float %79, float %85
  %87 = fptrunc float %.01.i4 to bfloat
  %88 = fadd bfloat %87, 1.000000e+00
  %89 = fmul bfloat %88, 5.000000e-01
  %90 = fmul bfloat %65, %89
  %91 = extractelement <4 x bfloat> %12, i64 3
  %92 = fmul bfloat %91, %91
  %93 = fmul bfloat %91, %92
  %94 = fmul bfloat %93, 4.467770e-02
  %95 = fadd bfloat %91, %94
  %96 = fmul bfloat %95, 7.968750e-01
  %97 = fpext bfloat %96 to float
  %98 = tail call float @llvm.nvvm.fabs.f32(float %97)
  %99 = fmul float %98, 2.885390e+00
  %100 = tail call float @llvm.nvvm.ex2.approx.ftz.f32(float %99)
  %101 = fadd float %100, 1.000000e+00
  %102 = tail call float asm "rcp.approx.ftz.f32 $0,$1;", "=f,f"(float %101) #6, !srcloc !7
  %103 = tail call float @llvm.fma.f32(float %102, float -2.000000e+00, float 1.000000e+00)
  %104 = fcmp oge float %98, f0x41102CB4
  %s.0.i5 = select i1 %104, float 1.000000e+00, float %103
  %105 = tail call float @llvm.copysign.f32(float %s.0.i5, float %97) #1
  %106 = fmul float %97, %97
  %107 = tail call float @llvm.fma.f32(float %106, float f0x3C80F082, float f0xBD563CAE)
  %108 = tail call float @llvm.fma.f32(float %107, float %106, float f0x3E085941)
  %109 = tail call float @llvm.fma.f32(float %108, float %106, float f0xBEAAA9ED)
  %110 = tail call float @llvm.fma.f32(float %109, float %106, float 0.000000e+00)
  %111 = tail call float @llvm.fma.f32(float %110, float %97, float %97)
  %112 = fcmp oge float %98, 6.000000e-01
  %.01.i6 = select i1 %112, float %105, float %111
  %113 = fptrunc float %.01.i6 to bfloat
  %114 = fadd bfloat %113, 1.000000e+00
  %115 = fmul bfloat %114, 5.000000e-01
  %116 = fmul bfloat %91, %115
  %117 = insertelement <4 x bfloat> poison, bfloat %38, i64 0
  %118 = insertelement <4 x bfloat> %117, bfloat %64, i64 1
  %119 = insertelement <4 x bfloat> %118, bfloat %90, i64 2
  %120 = insertelement <4 x bfloat> %119, bfloat %116, i64 3
  %121 = getelementptr inbounds [2 x i8], ptr addrspace(1) %4, i64 %10
  store <4 x bfloat> %120, ptr addrspace(1) %121, align 8
  ret void
}

; Function Attrs: nounwind
declare void @llvm.nvvm.griddepcontrol.wait() #1

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 2147483647) i32 @llvm.nvvm.read.ptx.sreg.ctaid.x() #2

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x() #2

; Function Attrs: mustprogress nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare float @llvm.nvvm.fabs.f32(float) #3

; Function Attrs: mustprogress nocallback nofree nosync nounwind willreturn memory(none)
declare float @llvm.nvvm.ex2.approx.ftz.f32(float) #4

; Function Attrs: mustprogress nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare float @llvm.copysign.f32(float, float) #3

; Function Attrs: nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare float @llvm.fma.f32(float, float, float) #5

attributes #0 = { nounwind "nvvm.reqntid"="128,1,1" }
attributes #1 = { nounwind }
attributes #2 = { mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #3 = { mustprogress nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none) }
attributes #4 = { mustprogress nocallback nofree nosync nounwind willreturn memory(none) }
attributes #5 = { nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none) }
attributes #6 = { nounwind memory(none) }

!llvm.module.flags = !{!0, !1}
!llvm.ident = !{!2}
!nvvmir.version = !{!3}

!0 = !{i32 2, !"Debug Info Version", i32 3}
!1 = !{i32 4, !"nvvm-reflect-ftz", i32 0}
!2 = !{!"clang version 3.8.0 (tags/RELEASE_380/final)"}
!3 = !{i32 2, i32 0}
!4 = !{i32 0, i32 24576}
!5 = !{i32 0, i32 128}
!6 = !{}
!7 = !{i32 21352}
