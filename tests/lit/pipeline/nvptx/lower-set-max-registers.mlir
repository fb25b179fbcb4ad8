// RUN: xla-gpu-opt %s --xla-gpu-lower-tma-to-nvvm | FileCheck %s

// A warp-specialized kernel's register moves become setmaxnreg, and an
// arrival that expects no bytes (a consumer releasing a stage) a plain
// mbarrier.arrive.
// CHECK-LABEL: func.func @k
// CHECK:       nvvm.setmaxregister decrease 40
// CHECK:       nvvm.setmaxregister increase 232
// CHECK:       %[[BAR:.*]] = xla_gpu.element_pointer %arg0[%arg1]
// CHECK-NEXT:  nvvm.mbarrier.arrive %[[BAR]] : !llvm.ptr<3>
// CHECK-NOT:   expect_tx
func.func @k(%b: memref<4xi64, #gpu.address_space<workgroup>>, %i: index) {
  xla_gpu.set_max_registers {count = 40 : i64}
  xla_gpu.set_max_registers {count = 232 : i64, increase}
  xla_gpu.mbarrier_arrive %b[%i] : memref<4xi64, #gpu.address_space<workgroup>>
  return
}
