// RUN: xla-gpu-opt %s --xla-gpu-lower-gpu-to-host --split-input-file --verify-diagnostics

// gpu ops the host target has no lowering for are named.
func.func @k(%x: i32) attributes {xla_gpu.launch = #xla_gpu.launch<grid = [1, 1, 1], block = [32, 1, 1]>} {
  // expected-error @+1 {{the host target cannot run 'gpu.subgroup_reduce'}}
  %r = gpu.subgroup_reduce add %x : (i32) -> i32
  return
}

// -----

func.func @k(%x: vector<4xf32>) attributes {xla_gpu.launch = #xla_gpu.launch<grid = [1, 1, 1], block = [32, 1, 1]>} {
  %c1 = arith.constant 1 : i32
  %c32 = arith.constant 32 : i32
  // expected-error @+1 {{the host target shuffles scalars of up to 64 bits, not 'vector<4xf32>'}}
  %s, %v = gpu.shuffle xor %x, %c1, %c32 : vector<4xf32>
  return
}
