; ModuleID = 'LLVMDialectModule'
source_filename = "LLVMDialectModule"
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@shared_0 = private addrspace(3) global [8 x float] undef

declare float @__nv_expf(float)

define ptx_kernel void @input_reduce_fusion(ptr noalias align 16 dereferenceable(262144) %0, ptr noalias align 256 dereferenceable(256) %1) #0 {
  call void @llvm.nvvm.griddepcontrol.wait()
  %3 = call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !range !1
  %4 = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x(), !range !2
  %5 = urem i32 %3, 64
  %6 = mul i32 %5, 2
  %7 = udiv i32 %3, 64
  %8 = mul i32 %7, 1024
  %9 = add i32 %6, %8
  %10 = mul i32 %4, 4096
  %11 = add i32 %9, %10
  br label %12

12:                                               ; preds = %16, %2
  %13 = phi i32 [ %60, %16 ], [ 0, %2 ]
  %14 = phi float [ %59, %16 ], [ 0.000000e+00, %2 ]
  %15 = icmp slt i32 %13, 8
  br i1 %15, label %16, label %61

16:                                               ; preds = %12
  %17 = mul i32 %13, 128
  %18 = add i32 %11, %17
  %19 = getelementptr inbounds [65536 x float], ptr %0, i32 0, i32 %18
  %20 = load <2 x float>, ptr %19, align 4, !invariant.load !3
  %21 = extractelement <2 x float> %20, i64 0
  %22 = call float @__nv_expf(float %21)
  %23 = call float @add_s_1(float %14, float %22)
  %24 = extractelement <2 x float> %20, i64 1
  %25 = call float @__nv_expf(float %24)
  %26 = call float @add_s_1(float %23, float %25)
  %27 = add i32 %13, 1
  %28 = mul i32 %27, 128
  %29 = add i32 %11, %28
  %30 = getelementptr inbounds [65536 x float], ptr %0, i32 0, i32 %29
  %31 = load <2 x float>, ptr %30, align 4, !invariant.load !3
  %32 = extractelement <2 x float> %31, i64 0
  %33 = call float @__nv_expf(float %32)
  %34 = call float @add_s_1(float %26, float %33)
  %35 = extractelement <2 x float> %31, i64 1
  %36 = call float @__nv_expf(float %35)
  %37 = call float @add_s_1(float %34, float %36)
  %38 = add i32 %13, 2
  %39 = mul i32 %38, 128
  %40 = add i32 %11, %39
  %41 = getelementptr inbounds [65536 x float], ptr %0, i32 0, i32 %40
  %42 = load <2 x float>, ptr %41, align 4, !invariant.load !3
  %43 = extractelement <2 x float> %42, i64 0
  %44 = call float @__nv_expf(float %43)
  %45 = call float @add_s_1(float %37, float %44)
  %46 = extractelement <2 x float> %42, i64 1
  %47 = call float @__nv_expf(float %46)
  %48 = call float @add_s_1(float %45, float %47)
  %49 = add i32 %13, 3
  %50 = mul i32 %49, 128
  %51 = add i32 %11, %50
  %52 = getelementptr inbounds [65536 x float], ptr %0, i32 0, i32 %51
  %53 = load <2 x float>, ptr %52, align 4, !invariant.load !3
  %54 = extractelement <2 x float> %53, i64 0
  %55 = call float @__nv_expf(float %54)
  %56 = call float @add_s_1(float %48, float %55)
  %57 = extractelement <2 x float> %53, i64 1
  %58 = call float @__nv_expf(float %57)
  %59 = call float @add_s_1(float %56, float %58)
  %60 = add i32 %13, 4
  br label %12

61:                                               ; preds = %12
  %62 = call float @llvm.nvvm.shfl.sync.down.f32(i32 -1, float %14, i32 16, i32 31)
  %63 = call float @add_s_1(float %14, float %62)
  %64 = call float @llvm.nvvm.shfl.sync.down.f32(i32 -1, float %63, i32 8, i32 31)
  %65 = call float @add_s_1(float %63, float %64)
  %66 = call float @llvm.nvvm.shfl.sync.down.f32(i32 -1, float %65, i32 4, i32 31)
  %67 = call float @add_s_1(float %65, float %66)
  %68 = call float @llvm.nvvm.shfl.sync.down.f32(i32 -1, float %67, i32 2, i32 31)
  %69 = call float @add_s_1(float %67, float %68)
  %70 = call float @llvm.nvvm.shfl.sync.down.f32(i32 -1, float %69, i32 1, i32 31)
  %71 = call float @add_s_1(float %69, float %70)
  %72 = urem i32 %3, 32
  %73 = icmp eq i32 %72, 0
  br i1 %73, label %74, label %77

74:                                               ; preds = %61
  %75 = udiv i32 %3, 32
  %76 = getelementptr inbounds [8 x float], ptr addrspacecast (ptr addrspace(3) @shared_0 to ptr), i32 0, i32 %75
  store float %71, ptr %76, align 4
  br label %77

77:                                               ; preds = %74, %61
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %78 = icmp sle i32 %5, 1
  br i1 %78, label %79, label %84

79:                                               ; preds = %77
  %80 = mul i32 %7, 2
  %81 = add i32 %80, %72
  %82 = getelementptr inbounds [8 x float], ptr addrspacecast (ptr addrspace(3) @shared_0 to ptr), i32 0, i32 %81
  %83 = load float, ptr %82, align 4
  br label %85

84:                                               ; preds = %77
  br label %85

85:                                               ; preds = %79, %84
  %86 = phi float [ 0.000000e+00, %84 ], [ %83, %79 ]
  br label %87

87:                                               ; preds = %85
  %88 = call float @llvm.nvvm.shfl.sync.down.f32(i32 -1, float %86, i32 16, i32 31)
  %89 = call float @add_s_1(float %86, float %88)
  %90 = call float @llvm.nvvm.shfl.sync.down.f32(i32 -1, float %89, i32 8, i32 31)
  %91 = call float @add_s_1(float %89, float %90)
  %92 = call float @llvm.nvvm.shfl.sync.down.f32(i32 -1, float %91, i32 4, i32 31)
  %93 = call float @add_s_1(float %91, float %92)
  %94 = call float @llvm.nvvm.shfl.sync.down.f32(i32 -1, float %93, i32 2, i32 31)
  %95 = call float @add_s_1(float %93, float %94)
  %96 = call float @llvm.nvvm.shfl.sync.down.f32(i32 -1, float %95, i32 1, i32 31)
  %97 = call float @add_s_1(float %95, float %96)
  %98 = icmp eq i32 %5, 0
  %99 = icmp sle i32 %3, 192
  %100 = and i1 %98, %99
  %101 = mul i32 %4, 4
  %102 = add i32 %101, %7
  br i1 %100, label %103, label %105

103:                                              ; preds = %87
  %104 = getelementptr inbounds [64 x float], ptr %1, i32 0, i32 %102
  store float %97, ptr %104, align 4
  br label %105

105:                                              ; preds = %103, %87
  ret void
}

define internal float @add_s_1(float %0, float %1) {
  %3 = fadd nsz float %0, %1
  ret float %3
}

; Function Attrs: nounwind
declare void @llvm.nvvm.griddepcontrol.wait() #1

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x() #2

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 2147483647) i32 @llvm.nvvm.read.ptx.sreg.ctaid.x() #2

; Function Attrs: convergent nocallback nounwind memory(inaccessiblemem: readwrite)
declare float @llvm.nvvm.shfl.sync.down.f32(i32, float, i32, i32) #3

; Function Attrs: convergent nocallback nounwind
declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32) #4

attributes #0 = { "nvvm.reqntid"="256,1,1" }
attributes #1 = { nounwind }
attributes #2 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #3 = { convergent nocallback nounwind memory(inaccessiblemem: readwrite) }
attributes #4 = { convergent nocallback nounwind }

!llvm.module.flags = !{!0}

!0 = !{i32 2, !"Debug Info Version", i32 3}
!1 = !{i32 0, i32 256}
!2 = !{i32 0, i32 16}
!3 = !{}
