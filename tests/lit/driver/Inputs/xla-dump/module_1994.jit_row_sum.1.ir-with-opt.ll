; ModuleID = 'LLVMDialectModule'
source_filename = "LLVMDialectModule"
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@shared_0 = private unnamed_addr addrspace(3) global [8 x float] undef

; Function Attrs: nounwind
define ptx_kernel void @input_reduce_fusion(ptr noalias nofree readonly align 16 captures(none) dereferenceable(262144) %0, ptr noalias nofree writeonly align 256 captures(none) dereferenceable(256) %1) local_unnamed_addr #0 {
  %3 = addrspacecast ptr %0 to ptr addrspace(1)
  %4 = addrspacecast ptr %1 to ptr addrspace(1)
  tail call void @llvm.nvvm.griddepcontrol.wait()
  %5 = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !range !4
  %6 = tail call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x(), !range !5
  %7 = and i32 %5, 63
  %8 = shl nuw nsw i32 %7, 1
  %9 = lshr i32 %5, 6
  %10 = shl nuw nsw i32 %9, 10
  %11 = or disjoint i32 %8, %10
  %12 = shl nuw nsw i32 %6, 12
  %13 = or disjoint i32 %11, %12
  %14 = zext nneg i32 %13 to i64
  %15 = getelementptr inbounds [4 x i8], ptr addrspace(1) %3, i64 %14
  %16 = load <2 x float>, ptr addrspace(1) %15, align 8, !invariant.load !6
  %17 = extractelement <2 x float> %16, i32 0
  %18 = extractelement <2 x float> %16, i32 1
  %19 = tail call float @llvm.fma.f32(float %17, float 5.724980e-03, float 5.000000e-01)
  %20 = tail call float @llvm.nvvm.saturate.f(float %19) #1
  %21 = tail call float @llvm.nvvm.fma.rm.f(float %20, float 2.520000e+02, float f0x4B400001) #1
  %22 = fadd float %21, f0xCB40007F
  %23 = fneg float %22
  %24 = tail call float @llvm.fma.f32(float %17, float f0x3FB8AA3B, float %23)
  %25 = tail call float @llvm.fma.f32(float %17, float f0x32A57060, float %24)
  %26 = bitcast float %21 to i32
  %27 = shl i32 %26, 23
  %28 = bitcast i32 %27 to float
  %29 = tail call float @llvm.nvvm.ex2.approx.ftz.f32(float %25)
  %30 = fmul float %29, %28
  %31 = tail call float @llvm.fma.f32(float %18, float 5.724980e-03, float 5.000000e-01)
  %32 = tail call float @llvm.nvvm.saturate.f(float %31) #1
  %33 = tail call float @llvm.nvvm.fma.rm.f(float %32, float 2.520000e+02, float f0x4B400001) #1
  %34 = fadd float %33, f0xCB40007F
  %35 = fneg float %34
  %36 = tail call float @llvm.fma.f32(float %18, float f0x3FB8AA3B, float %35)
  %37 = tail call float @llvm.fma.f32(float %18, float f0x32A57060, float %36)
  %38 = bitcast float %33 to i32
  %39 = shl i32 %38, 23
  %40 = bitcast i32 %39 to float
  %41 = tail call float @llvm.nvvm.ex2.approx.ftz.f32(float %37)
  %42 = fmul float %41, %40
  %43 = fadd nsz float %42, %30
  %44 = getelementptr inbounds i8, ptr addrspace(1) %15, i64 512
  %45 = load <2 x float>, ptr addrspace(1) %44, align 8, !invariant.load !6
  %46 = extractelement <2 x float> %45, i32 0
  %47 = extractelement <2 x float> %45, i32 1
  %48 = tail call float @llvm.fma.f32(float %46, float 5.724980e-03, float 5.000000e-01)
  %49 = tail call float @llvm.nvvm.saturate.f(float %48) #1
  %50 = tail call float @llvm.nvvm.fma.rm.f(float %49, float 2.520000e+02, float f0x4B400001) #1
  %51 = fadd float %50, f0xCB40007F
  %52 = fneg float %51
  %53 = tail call float @llvm.fma.f32(float %46, float f0x3FB8AA3B, float %52)
  %54 = tail call float @llvm.fma.f32(float %46, float f0x32A57060, float %53)
  %55 = bitcast float %50 to i32
  %56 = shl i32 %55, 23
  %57 = bitcast i32 %56 to float
  %58 = tail call float @llvm.nvvm.ex2.approx.ftz.f32(float %54)
  %59 = fmul float %58, %57
  %60 = fadd nsz float %43, %59
  %61 = tail call float @llvm.fma.f32(float %47, float 5.724980e-03, float 5.000000e-01)
  %62 = tail call float @llvm.nvvm.saturate.f(float %61) #1
  %63 = tail call float @llvm.nvvm.fma.rm.f(float %62, float 2.520000e+02, float f0x4B400001) #1
  %64 = fadd float %63, f0xCB40007F
  %65 = fneg float %64
  %66 = tail call float @llvm.fma.f32(float %47, float f0x3FB8AA3B, float %65)
  %67 = tail call float @llvm.fma.f32(float %47, float f0x32A57060, float %66)
  %68 = bitcast float %63 to i32
  %69 = shl i32 %68, 23
  %70 = bitcast i32 %69 to float
  %71 = tail call float @llvm.nvvm.ex2.approx.ftz.f32(float %67)
  %72 = fmul float %71, %70
  %73 = fadd nsz float %72, %60
  %74 = getelementptr inbounds i8, ptr addrspace(1) %15, i64 1024
  %75 = load <2 x float>, ptr addrspace(1) %74, align 8, !invariant.load !6
  %76 = extractelement <2 x float> %75, i32 0
  %77 = extractelement <2 x float> %75, i32 1
  %78 = tail call float @llvm.fma.f32(float %76, float 5.724980e-03, float 5.000000e-01)
  %79 = tail call float @llvm.nvvm.saturate.f(float %78) #1
  %80 = tail call float @llvm.nvvm.fma.rm.f(float %79, float 2.520000e+02, float f0x4B400001) #1
  %81 = fadd float %80, f0xCB40007F
  %82 = fneg float %81
  %83 = tail call float @llvm.fma.f32(float %76, float f0x3FB8AA3B, float %82)
  %84 = tail call float @llvm.fma.f32(float %76, float f0x32A57060, float %83)
  %85 = bitcast float %80 to i32
  %86 = shl i32 %85, 23
  %87 = bitcast i32 %86 to float
  %88 = tail call float @llvm.nvvm.ex2.approx.ftz.f32(float %84)
  %89 = fmul float %88, %87
  %90 = fadd nsz float %73, %89
  %91 = tail call float @llvm.fma.f32(float %77, float 5.724980e-03, float 5.000000e-01)
  %92 = tail call float @llvm.nvvm.saturate.f(float %91) #1
  %93 = tail call float @llvm.nvvm.fma.rm.f(float %92, float 2.520000e+02, float f0x4B400001) #1
  %94 = fadd float %93, f0xCB40007F
  %95 = fneg float %94
  %96 = tail call float @llvm.fma.f32(float %77, float f0x3FB8AA3B, float %95)
  %97 = tail call float @llvm.fma.f32(float %77, float f0x32A57060, float %96)
  %98 = bitcast float %93 to i32
  %99 = shl i32 %98, 23
  %100 = bitcast i32 %99 to float
  %101 = tail call float @llvm.nvvm.ex2.approx.ftz.f32(float %97)
  %102 = fmul float %101, %100
  %103 = fadd nsz float %102, %90
  %104 = getelementptr inbounds i8, ptr addrspace(1) %15, i64 1536
  %105 = load <2 x float>, ptr addrspace(1) %104, align 8, !invariant.load !6
  %106 = extractelement <2 x float> %105, i32 0
  %107 = extractelement <2 x float> %105, i32 1
  %108 = tail call float @llvm.fma.f32(float %106, float 5.724980e-03, float 5.000000e-01)
  %109 = tail call float @llvm.nvvm.saturate.f(float %108) #1
  %110 = tail call float @llvm.nvvm.fma.rm.f(float %109, float 2.520000e+02, float f0x4B400001) #1
  %111 = fadd float %110, f0xCB40007F
  %112 = fneg float %111
  %113 = tail call float @llvm.fma.f32(float %106, float f0x3FB8AA3B, float %112)
  %114 = tail call float @llvm.fma.f32(float %106, float f0x32A57060, float %113)
  %115 = bitcast float %110 to i32
  %116 = shl i32 %115, 23
  %117 = bitcast i32 %116 to float
  %118 = tail call float @llvm.nvvm.ex2.approx.ftz.f32(float %114)
  %119 = fmul float %118, %117
  %120 = fadd nsz float %103, %119
  %121 = tail call float @llvm.fma.f32(float %107, float 5.724980e-03, float 5.000000e-01)
  %122 = tail call float @llvm.nvvm.saturate.f(float %121) #1
  %123 = tail call float @llvm.nvvm.fma.rm.f(float %122, float 2.520000e+02, float f0x4B400001) #1
  %124 = fadd float %123, f0xCB40007F
  %125 = fneg float %124
  %126 = tail call float @llvm.fma.f32(float %107, float f0x3FB8AA3B, float %125)
  %127 = tail call float @llvm.fma.f32(float %107, float f0x32A57060, float %126)
  %128 = bitcast float %123 to i32
  %129 = shl i32 %128, 23
  %130 = bitcast i32 %129 to float
  %131 = tail call float @llvm.nvvm.ex2.approx.ftz.f32(float %127)
  %132 = fmul float %131, %130
  %133 = fadd nsz float %132, %120
  %134 = getelementptr inbounds i8, ptr addrspace(1) %15, i64 2048
  %135 = load <2 x float>, ptr addrspace(1) %134, align 8, !invariant.load !6
  %136 = extractelement <2 x float> %135, i32 0
  %137 = extractelement <2 x float> %135, i32 1
  %138 = tail call float @llvm.fma.f32(float %136, float 5.724980e-03, float 5.000000e-01)
  %139 = tail call float @llvm.nvvm.saturate.f(float %138) #1
  %140 = tail call float @llvm.nvvm.fma.rm.f(float %139, float 2.520000e+02, float f0x4B400001) #1
  %141 = fadd float %140, f0xCB40007F
  %142 = fneg float %141
  %143 = tail call float @llvm.fma.f32(float %136, float f0x3FB8AA3B, float %142)
  %144 = tail call float @llvm.fma.f32(float %136, float f0x32A57060, float %143)
  %145 = bitcast float %140 to i32
  %146 = shl i32 %145, 23
  %147 = bitcast i32 %146 to float
  %148 = tail call float @llvm.nvvm.ex2.approx.ftz.f32(float %144)
  %149 = fmul float %148, %147
  %150 = fadd nsz float %133, %149
  %151 = tail call float @llvm.fma.f32(float %137, float 5.724980e-03, float 5.000000e-01)
  %152 = tail call float @llvm.nvvm.saturate.f(float %151) #1
  %153 = tail call float @llvm.nvvm.fma.rm.f(float %152, float 2.520000e+02, float f0x4B400001) #1
  %154 = fadd float %153, f0xCB40007F
  %155 = fneg float %154
  %156 = tail call float @llvm.fma.f32(float %137, float f0x3FB8AA3B, float %155)
  %157 = tail call float @llvm.fma.f32(float %137, float f0x32A57060, float %156)
  %158 = bitcast float %153 to i32
  %159 = shl i32 %158, 23
  %160 = bitcast i32 %159 to float
  %161 = tail call float @llvm.nvvm.ex2.approx.ftz.f32(float %157)
  %162 = fmul float %161, %160
  %163 = fadd nsz float %162, %150
  %164 = getelementptr inbounds i8, ptr addrspace(1) %15, i64 2560
  %165 = load <2 x float>, ptr addrspace(1) %164, align 8, !invariant.load !6
  %166 = extractelement <2 x float> %165, i32 0
  %167 = extractelement <2 x float> %165, i32 1
  %168 = tail call float @llvm.fma.f32(float %166, float 5.724980e-03, float 5.000000e-01)
  %169 = tail call float @llvm.nvvm.saturate.f(float %168) #1
  %170 = tail call float @llvm.nvvm.fma.rm.f(float %169, float 2.520000e+02, float f0x4B400001) #1
  %171 = fadd float %170, f0xCB40007F
  %172 = fneg float %171
  %173 = tail call float @llvm.fma.f32(float %166, float f0x3FB8AA3B, float %172)
  %174 = tail call float @llvm.fma.f32(float %166, float f0x32A57060, float %173)
  %175 = bitcast float %170 to i32
  %176 = shl i32 %175, 23
  %177 = bitcast i32 %176 to float
  %178 = tail call float @llvm.nvvm.ex2.approx.ftz.f32(float %174)
  %179 = fmul float %178, %177
  %180 = fadd nsz float %163, %179
  %181 = tail call float @llvm.fma.f32(float %167, float 5.724980e-03, float 5.000000e-01)
  %182 = tail call float @llvm.nvvm.saturate.f(float %181) #1
  %183 = tail call float @llvm.nvvm.fma.rm.f(float %182, float 2.520000e+02, float f0x4B400001) #1
  %184 = fadd float %183, f0xCB40007F
  %185 = fneg float %184
  %186 = tail call float @llvm.fma.f32(float %167, float f0x3FB8AA3B, float %185)
  %187 = tail call float @llvm.fma.f32(float %167, float f0x32A57060, float %186)
  %188 = bitcast float %183 to i32
  %189 = shl i32 %188, 23
  %190 = bitcast i32 %189 to float
  %191 = tail call float @llvm.nvvm.ex2.approx.ftz.f32(float %187)
  %192 = fmul float %191, %190
  %193 = fadd nsz float %192, %180
  %194 = getelementptr inbounds i8, ptr addrspace(1) %15, i64 3072
  %195 = load <2 x float>, ptr addrspace(1) %194, align 8, !invariant.load !6
  %196 = extractelement <2 x float> %195, i32 0
  %197 = extractelement <2 x float> %195, i32 1
  %198 = tail call float @llvm.fma.f32(float %196, float 5.724980e-03, float 5.000000e-01)
  %199 = tail call float @llvm.nvvm.saturate.f(float %198) #1
  %200 = tail call float @llvm.nvvm.fma.rm.f(float %199, float 2.520000e+02, float f0x4B400001) #1
  %201 = fadd float %200, f0xCB40007F
  %202 = fneg float %201
  %203 = tail call float @llvm.fma.f32(float %196, float f0x3FB8AA3B, float %202)
  %204 = tail call float @llvm.fma.f32(float %196, float f0x32A57060, float %203)
  %205 = bitcast float %200 to i32
  %206 = shl i32 %205, 23
  %207 = bitcast i32 %206 to float
  %208 = tail call float @llvm.nvvm.ex2.approx.ftz.f32(float %204)
  %209 = fmul float %208, %207
  %210 = fadd nsz float %193, %209
  %211 = tail call float @llvm.fma.f32(float %197, float 5.724980e-03, float 5.000000e-01)
  %212 = tail call float @llvm.nvvm.saturate.f(float %211) #1
  %213 = tail call float @llvm.nvvm.fma.rm.f(float %212, float 2.520000e+02, float f0x4B400001) #1
  %214 = fadd float %213, f0xCB40007F
  %215 = fneg float %214
  %216 = tail call float @llvm.fma.f32(float %197, float f0x3FB8AA3B, float %215)
  %217 = tail call float @llvm.fma.f32(float %197, float f0x32A57060, float %216)
  %218 = bitcast float %213 to i32
  %219 = shl i32 %218, 23
  %220 = bitcast i32 %219 to float
  %221 = tail call float @llvm.nvvm.ex2.approx.ftz.f32(float %217)
  %222 = fmul float %221, %220
  %223 = fadd nsz float %222, %210
  %224 = getelementptr inbounds i8, ptr addrspace(1) %15, i64 3584
  %225 = load <2 x float>, ptr addrspace(1) %224, align 8, !invariant.load !6
  %226 = extractelement <2 x float> %225, i32 0
  %227 = extractelement <2 x float> %225, i32 1
  %228 = tail call float @llvm.fma.f32(float %226, float 5.724980e-03, float 5.000000e-01)
  %229 = tail call float @llvm.nvvm.saturate.f(float %228) #1
  %230 = tail call float @llvm.nvvm.fma.rm.f(float %229, float 2.520000e+02, float f0x4B400001) #1
  %231 = fadd float %230, f0xCB40007F
  %232 = fneg float %231
  %233 = tail call float @llvm.fma.f32(float %226, float f0x3FB8AA3B, float %232)
  %234 = tail call float @llvm.fma.f32(float %226, float f0x32A57060, float %233)
  %235 = bitcast float %230 to i32
  %236 = shl i32 %235, 23
  %237 = bitcast i32 %236 to float
  %238 = tail call float @llvm.nvvm.ex2.approx.ftz.f32(float %234)
  %239 = fmul float %238, %237
  %240 = fadd nsz float %223, %239
  %241 = tail call float @llvm.fma.f32(float %227, float 5.724980e-03, float 5.000000e-01)
  %242 = tail call float @llvm.nvvm.saturate.f(float %241) #1
  %243 = tail call float @llvm.nvvm.fma.rm.f(float %242, float 2.520000e+02, float f0x4B400001) #1
  %244 = fadd float %243, f0xCB40007F
  %245 = fneg float %244
  %246 = tail call float @llvm.fma.f32(float %227, float f0x3FB8AA3B, float %245)
  %247 = tail call float @llvm.fma.f32(float %227, float f0x32A57060, float %246)
  %248 = bitcast float %243 to i32
  %249 = shl i32 %248, 23
  %250 = bitcast i32 %249 to float
  %251 = tail call float @llvm.nvvm.ex2.approx.ftz.f32(float %247)
  %252 = fmul float %251, %250
  %253 = fadd nsz float %252, %240
  %254 = tail call float @llvm.nvvm.shfl.sync.down.f32(i32 -1, float %253, i32 16, i32 31)
  %255 = fadd nsz float %253, %254
  %256 = tail call float @llvm.nvvm.shfl.sync.down.f32(i32 -1, float %255, i32 8, i32 31)
  %257 = fadd nsz float %255, %256
  %258 = tail call float @llvm.nvvm.shfl.sync.down.f32(i32 -1, float %257, i32 4, i32 31)
  %259 = fadd nsz float %257, %258
  %260 = tail call float @llvm.nvvm.shfl.sync.down.f32(i32 -1, float %259, i32 2, i32 31)
  %261 = fadd nsz float %259, %260
  %262 = tail call float @llvm.nvvm.shfl.sync.down.f32(i32 -1, float %261, i32 1, i32 31)
  %263 = and i32 %5, 31
  %264 = icmp eq i32 %263, 0
  %265 = lshr exact i32 %5, 5
  %266 = zext nneg i32 %265 to i64
  %267 = getelementptr inbounds [4 x i8], ptr addrspace(3) @shared_0, i64 %266
  %268 = fadd nsz float %261, %262
  br i1 %264, label %269, label %270

269:                                              ; preds = %2
  store float %268, ptr addrspace(3) %267, align 4
  br label %270

270:                                              ; preds = %269, %2
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %271 = icmp samesign ult i32 %7, 2
  %272 = shl nuw nsw i32 %9, 1
  %273 = add nuw nsw i32 %272, %263
  %274 = zext nneg i32 %273 to i64
  %275 = getelementptr inbounds [4 x i8], ptr addrspace(3) @shared_0, i64 %274
  br i1 %271, label %276, label %278

276:                                              ; preds = %270
  %277 = load float, ptr addrspace(3) %275, align 4
  br label %278

278:                                              ; preds = %276, %270
  %279 = phi float [ %277, %276 ], [ 0.000000e+00, %270 ]
  %280 = tail call float @llvm.nvvm.shfl.sync.down.f32(i32 -1, float %279, i32 16, i32 31)
  %281 = fadd nsz float %279, %280
  %282 = tail call float @llvm.nvvm.shfl.sync.down.f32(i32 -1, float %281, i32 8, i32 31)
  %283 = fadd nsz float %281, %282
  %284 = tail call float @llvm.nvvm.shfl.sync.down.f32(i32 -1, float %283, i32 4, i32 31)
  %285 = fadd nsz float %283, %284
  %286 = tail call float @llvm.nvvm.shfl.sync.down.f32(i32 -1, float %285, i32 2, i32 31)
  %287 = fadd nsz float %285, %286
  %288 = tail call float @llvm.nvvm.shfl.sync.down.f32(i32 -1, float %287, i32 1, i32 31)
  %289 = icmp eq i32 %7, 0
  %290 = icmp samesign ult i32 %5, 193
  %291 = and i1 %290, %289
  %292 = shl nuw nsw i32 %6, 2
  %293 = or disjoint i32 %292, %9
  %294 = zext nneg i32 %293 to i64
  %295 = getelementptr inbounds [4 x i8], ptr addrspace(1) %4, i64 %294
  %296 = fadd nsz float %287, %288
  br i1 %291, label %297, label %298

297:                                              ; preds = %278
  store float %296, ptr addrspace(1) %295, align 4
  br label %298

298:                                              ; preds = %297, %278
  ret void
}

; Function Attrs: nounwind
declare void @llvm.nvvm.griddepcontrol.wait() #1

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x() #2

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 2147483647) i32 @llvm.nvvm.read.ptx.sreg.ctaid.x() #2

; Function Attrs: convergent nocallback nounwind memory(inaccessiblemem: readwrite)
declare float @llvm.nvvm.shfl.sync.down.f32(i32, float, i32, i32) #3

; Function Attrs: convergent nocallback nounwind
declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32) #4

; Function Attrs: mustprogress nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare float @llvm.nvvm.saturate.f(float) #5

; Function Attrs: mustprogress nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare float @llvm.nvvm.fma.rm.f(float, float, float) #5

; Function Attrs: mustprogress nocallback nofree nosync nounwind willreturn memory(none)
declare float @llvm.nvvm.ex2.approx.ftz.f32(float) #6

; Function Attrs: nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare float @llvm.fma.f32(float, float, float) #7

attributes #0 = { nounwind "nvvm.reqntid"="256,1,1" }
attributes #1 = { nounwind }
attributes #2 = { mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #3 = { convergent nocallback nounwind memory(inaccessiblemem: readwrite) }
attributes #4 = { convergent nocallback nounwind }
attributes #5 = { mustprogress nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none) }
attributes #6 = { mustprogress nocallback nofree nosync nounwind willreturn memory(none) }
attributes #7 = { nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none) }

!llvm.module.flags = !{!0, !1}
!llvm.ident = !{!2}
!nvvmir.version = !{!3}

!0 = !{i32 2, !"Debug Info Version", i32 3}
!1 = !{i32 4, !"nvvm-reflect-ftz", i32 0}
!2 = !{!"clang version 3.8.0 (tags/RELEASE_380/final)"}
!3 = !{i32 2, i32 0}
!4 = !{i32 0, i32 256}
!5 = !{i32 0, i32 16}
!6 = !{}
