; ModuleID = 'LLVMDialectModule'
source_filename = "LLVMDialectModule"
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare float @__nv_tanhf(float)

define ptx_kernel void @gelu_fusion(ptr noalias align 16 dereferenceable(25165824) %0, ptr noalias align 256 dereferenceable(25165824) %1) #0 {
  call void @llvm.nvvm.griddepcontrol.wait()
  %3 = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x(), !range !1
  %4 = call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !range !2
  %5 = mul i32 %4, 4
  %6 = mul i32 %3, 512
  %7 = add i32 %5, %6
  %8 = getelementptr inbounds [12582912 x bfloat], ptr %0, i32 0, i32 %7
  %9 = load <4 x bfloat>, ptr %8, align 2, !invariant.load !3
  %10 = extractelement <4 x bfloat> %9, i64 0
  %11 = fmul bfloat %10, %10
  %12 = fmul bfloat %11, %10
  %13 = fmul bfloat %12, 4.467770e-02
  %14 = fadd bfloat %10, %13
  %15 = fmul bfloat %14, 7.968750e-01
  %16 = fpext bfloat %15 to float
  %17 = call float @__nv_tanhf(float %16)
  %18 = fptrunc float %17 to bfloat
  %19 = fadd bfloat %18, 1.000000e+00
  %20 = fmul bfloat %19, 5.000000e-01
  %21 = fmul bfloat %10, %20
  %22 = extractelement <4 x bfloat> %9, i64 1
  %23 = fmul bfloat %22, %22
  %24 = fmul bfloat %23, %22
  %25 = fmul bfloat %24, 4.467770e-02
  %26 = fadd bfloat %22, %25
  %27 = fmul bfloat %26, 7.968750e-01
  %28 = fpext bfloat %27 to float
  %29 = call float @__nv_tanhf(float %28)
  %30 = fptrunc float %29 to bfloat
  %31 = fadd bfloat %30, 1.000000e+00
  %32 = fmul bfloat %31, 5.000000e-01
  %33 = fmul bfloat %22, %32
  %34 = extractelement <4 x bfloat> %9, i64 2
  %35 = fmul bfloat %34, %34
  %36 = fmul bfloat %35, %34
  %37 = fmul bfloat %36, 4.467770e-02
  %38 = fadd bfloat %34, %37
  %39 = fmul bfloat %38, 7.968750e-01
  %40 = fpext bfloat %39 to float
  %41 = call float @__nv_tanhf(float %40)
  %42 = fptrunc float %41 to bfloat
  %43 = fadd bfloat %42, 1.000000e+00
  %44 = fmul bfloat %43, 5.000000e-01
  %45 = fmul bfloat %34, %44
  %46 = extractelement <4 x bfloat> %9, i64 3
  %47 = fmul bfloat %46, %46
  %48 = fmul bfloat %47, %46
  %49 = fmul bfloat %48, 4.467770e-02
  %50 = fadd bfloat %46, %49
  %51 = fmul bfloat %50, 7.968750e-01
  %52 = fpext bfloat %51 to float
  %53 = call float @__nv_tanhf(float %52)
  %54 = fptrunc float %53 to bfloat
  %55 = fadd bfloat %54, 1.000000e+00
  %56 = fmul bfloat %55, 5.000000e-01
  %57 = fmul bfloat %46, %56
  %58 = insertelement <4 x bfloat> poison, bfloat %21, i32 0
  %59 = insertelement <4 x bfloat> %58, bfloat %33, i32 1
  %60 = insertelement <4 x bfloat> %59, bfloat %45, i32 2
  %61 = insertelement <4 x bfloat> %60, bfloat %57, i32 3
  %62 = getelementptr inbounds [12582912 x bfloat], ptr %1, i32 0, i32 %7
  store <4 x bfloat> %61, ptr %62, align 2
  ret void
}

; Function Attrs: nounwind
declare void @llvm.nvvm.griddepcontrol.wait() #1

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 2147483647) i32 @llvm.nvvm.read.ptx.sreg.ctaid.x() #2

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x() #2

attributes #0 = { "nvvm.reqntid"="128,1,1" }
attributes #1 = { nounwind }
attributes #2 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }

!llvm.module.flags = !{!0}

!0 = !{i32 2, !"Debug Info Version", i32 3}
!1 = !{i32 0, i32 24576}
!2 = !{i32 0, i32 128}
!3 = !{}
