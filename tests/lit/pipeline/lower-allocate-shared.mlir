// RUN: xla-gpu-opt %s --xla-gpu-lower-allocate-shared | FileCheck %s

// Each tile is a global of its own in workgroup memory, named after its
// kernel, seen as a writable tensor.
func.func @kernel(%v: f32, %i: index) -> f32 {
  %a = xla_gpu.allocate_shared : tensor<2x33xf32>
  %b = xla_gpu.allocate_shared : tensor<2x33xf32>
  %w = tensor.insert %v into %a[%i, %i] : tensor<2x33xf32>
  %x = tensor.extract %w[%i, %i] : tensor<2x33xf32>
  %y = tensor.extract %b[%i, %i] : tensor<2x33xf32>
  %s = arith.addf %x, %y : f32
  return %s : f32
}
// CHECK:       memref.global "private" @[[G0:kernel_shared[_0-9]*]] : memref<2x33xf32, #gpu.address_space<workgroup>>
// CHECK:       memref.global "private" @[[G1:kernel_shared[_0-9]*]] : memref<2x33xf32, #gpu.address_space<workgroup>>
// CHECK-LABEL: func.func @kernel(
// CHECK:         %[[M0:.*]] = memref.get_global @[[G0]] : memref<2x33xf32, #gpu.address_space<workgroup>>
// CHECK:         %[[T0:.*]] = bufferization.to_tensor %[[M0]] restrict writable
// CHECK:         %[[M1:.*]] = memref.get_global @[[G1]]
// CHECK:         bufferization.to_tensor %[[M1]] restrict writable
// CHECK:         tensor.insert %{{.*}} into %[[T0]]
// CHECK-NOT:     allocate_shared

// A tile that asks for more than 16 bytes of alignment (a swizzled wgmma
// tile: its swizzle atom) gets it; one that asks for less gets 16.
func.func @aligned(%i: index) -> (bf16, bf16) {
  %a = xla_gpu.allocate_shared {alignment = 1024 : i64} : tensor<2x64x64xbf16>
  %b = xla_gpu.allocate_shared {alignment = 4 : i64} : tensor<8x8xbf16>
  %x = tensor.extract %a[%i, %i, %i] : tensor<2x64x64xbf16>
  %y = tensor.extract %b[%i, %i] : tensor<8x8xbf16>
  return %x, %y : bf16, bf16
}
// CHECK: memref.global "private" @{{aligned_shared[_0-9]*}} : memref<2x64x64xbf16, #gpu.address_space<workgroup>> {alignment = 1024 : i64}
// CHECK: memref.global "private" @{{aligned_shared[_0-9]*}} : memref<8x8xbf16, #gpu.address_space<workgroup>> {alignment = 16 : i64}
