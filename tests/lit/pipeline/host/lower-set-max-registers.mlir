// RUN: xla-gpu-opt %s --xla-gpu-lower-gpu-to-host | FileCheck %s

// setmaxnreg calls the launcher's (abi/HostKernelAbi.h) with the count and
// whether it raises (1) or lowers (0) the warpgroup's registers.
// CHECK-DAG:   func.func private @__hlo_host_setmaxnreg(!llvm.ptr, i32, i32)
// CHECK-LABEL: func.func @k(
// CHECK:       call @__hlo_host_setmaxnreg(%arg0, %c40_i32, %c0_i32)
// CHECK:       call @__hlo_host_setmaxnreg(%arg0, %c232_i32, %c1_i32)
func.func @k() {
  xla_gpu.set_max_registers {count = 40 : i64}
  xla_gpu.set_max_registers {count = 232 : i64, increase}
  return
}
