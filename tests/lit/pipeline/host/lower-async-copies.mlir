// RUN: xla-gpu-opt %s --xla-gpu-lower-gpu-to-host | FileCheck %s

// On the host an async copy is done when issued: where the condition holds
// each element is loaded from the source and stored into the tile (here 4
// bf16 for 8 bytes, along the last dimension), else zeros are stored and
// the source is not read; commits and waits have nothing left to do.
// CHECK-LABEL: func.func @k(
// CHECK:       scf.if %arg3 {
// CHECK:         %[[V0:.*]] = memref.load %arg0[%arg2, %{{.*}}] : memref<256x64xbf16>
// CHECK:         memref.store %[[V0]], %arg1[%arg2, %{{.*}}] : memref<64x40xbf16, #gpu.address_space<workgroup>>
// CHECK-COUNT-3: memref.load %arg0
// CHECK:       } else {
// CHECK:         %[[ZERO:.*]] = arith.constant 0.000000e+00 : bf16
// CHECK-COUNT-4: memref.store %[[ZERO]], %arg1
// CHECK-NOT:     memref.load
// CHECK:       }
// CHECK-NOT:   xla_gpu.async
// CHECK:       return
func.func @k(%a: memref<256x64xbf16>, %t: memref<64x40xbf16, #gpu.address_space<workgroup>>, %i: index, %c: i1)
    attributes {xla_gpu.launch = #xla_gpu.launch<grid = [1, 1, 1], block = [32, 1, 1]>} {
  xla_gpu.async_copy %a[%i, %i] into %t[%i, %i] if %c {bytes = 8 : i64} : memref<256x64xbf16>, memref<64x40xbf16, #gpu.address_space<workgroup>>
  xla_gpu.async_commit
  xla_gpu.async_wait {pending = 0 : i64}
  return
}
