// The kernel contract's attributes (dialect/KernelContract.h): verified
// wherever they appear, and printed back as written.
// RUN: xla-gpu-opt %s -split-input-file -verify-diagnostics | FileCheck %s

// CHECK-LABEL: func.func @kernel
// CHECK-SAME:    xla_gpu.emitter = "kLoop/LoopFusion", xla_gpu.kernel_index = 3 : i64,
// CHECK-SAME:    xla_gpu.launch = #xla_gpu.launch<grid = [24576, 2, 1], block = [128, 1, 1]>
func.func @kernel() attributes {
    xla_gpu.launch = #xla_gpu.launch<grid = [24576, 2, 1], block = [128, 1, 1]>,
    xla_gpu.emitter = "kLoop/LoopFusion", xla_gpu.kernel_index = 3 : i64} {
  return
}

// -----

// expected-error @+1 {{a launch's block has three extents, not 2}}
func.func @two_extents() attributes {xla_gpu.launch = #xla_gpu.launch<grid = [1, 1, 1], block = [32, 1]>} {
  return
}

// -----

// expected-error @+1 {{a launch's grid extents are at least 1}}
func.func @empty_grid() attributes {xla_gpu.launch = #xla_gpu.launch<grid = [0, 1, 1], block = [32, 1, 1]>} {
  return
}

// -----

// expected-error @+1 {{'xla_gpu.launch' is a #xla_gpu.launch}}
func.func @old_form() attributes {xla_gpu.launch = array<i64: 128, 1, 1>} {
  return
}

// -----

func.func @not_a_function() {
  // expected-error @+1 {{'xla_gpu.launch' belongs on a kernel's function}}
  %0 = arith.constant {xla_gpu.launch = #xla_gpu.launch<grid = [1, 1, 1], block = [1, 1, 1]>} 0 : index
  return
}

// -----

// expected-error @+1 {{'xla_gpu.shared_memory_bytes' is a non-negative integer}}
func.func @negative_shared() attributes {xla_gpu.shared_memory_bytes = -4 : i64} {
  return
}

// -----

// A launch may also group its blocks in clusters, add dynamic shared
// memory and bound the registers; each printed only when set.
// CHECK-LABEL: func.func @cluster_kernel
// CHECK-SAME:    xla_gpu.launch = #xla_gpu.launch<grid = [132, 2, 1], block = [384, 1, 1], cluster = [2, 1, 1], dynamic_shared_memory = 200704, max_registers = 168>
func.func @cluster_kernel() attributes {
    xla_gpu.launch = #xla_gpu.launch<grid = [132, 2, 1], block = [384, 1, 1], cluster = [2, 1, 1], dynamic_shared_memory = 200704, max_registers = 168>} {
  return
}
// CHECK-LABEL: func.func @registers_only
// CHECK-SAME:    xla_gpu.launch = #xla_gpu.launch<grid = [1, 1, 1], block = [128, 1, 1], max_registers = 64>
func.func @registers_only() attributes {
    xla_gpu.launch = #xla_gpu.launch<grid = [1, 1, 1], block = [128, 1, 1], max_registers = 64>} {
  return
}

// -----

// expected-error @+1 {{a launch's grid extent 3 is not a multiple of its cluster extent 2}}
func.func @partial_cluster() attributes {xla_gpu.launch = #xla_gpu.launch<grid = [3, 1, 1], block = [32, 1, 1], cluster = [2, 1, 1]>} {
  return
}

// -----

// expected-error @+1 {{a launch's cluster has more than 16 blocks}}
func.func @huge_cluster() attributes {xla_gpu.launch = #xla_gpu.launch<grid = [32, 1, 1], block = [32, 1, 1], cluster = [32, 1, 1]>} {
  return
}

// -----

// expected-error @+1 {{a launch's max_registers is 0 (any) or at most 255, not 300}}
func.func @too_many_registers() attributes {xla_gpu.launch = #xla_gpu.launch<grid = [1, 1, 1], block = [32, 1, 1], max_registers = 300>} {
  return
}
