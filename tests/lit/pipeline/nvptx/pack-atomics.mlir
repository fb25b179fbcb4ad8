// RUN: xla-gpu-opt %s --xla-gpu-pack-atomics="compute-capability=80" | FileCheck %s --check-prefix=SM80
// RUN: xla-gpu-opt %s --xla-gpu-pack-atomics="compute-capability=90" | FileCheck %s --check-prefix=SM90

// Two f16 atomic adds on an even minor index and the next one of a buffer
// whose minor extent is even update one aligned 32-bit word: one packed
// reduction, the first value in the low half. The load of another buffer
// between them does not stop the pairing.
// SM80-LABEL: func.func @f16_pair(
// SM80-SAME:    %[[B:.*]]: memref<4x64xf16>, %[[U:.*]]: memref<8xf16>, %[[R:.*]]: index, %[[P:.*]]: index
// SM80:         %[[EVEN:.*]] = arith.muli %[[P]], %c2
// SM80:         %[[X:.*]] = memref.load %[[U]][%c0]
// SM80:         %[[Y:.*]] = memref.load %[[U]][%c1]
// SM80:         %[[PAIR:.*]] = vector.from_elements %[[X]], %[[Y]] : vector<2xf16>
// SM80:         %[[BITS:.*]] = vector.bitcast %[[PAIR]] : vector<2xf16> to vector<1xi32>
// SM80:         %[[WORD:.*]] = vector.extract %[[BITS]][0] : i32 from vector<1xi32>
// SM80:         %[[PTR:.*]] = xla_gpu.element_pointer %[[B]][%[[R]], %[[EVEN]]] : memref<4x64xf16> -> !llvm.ptr
// SM80:         llvm.inline_asm has_side_effects "red.add.noftz.f16x2 [$0], $1;", "l,r" %[[PTR]], %[[WORD]]
// SM80-NOT:     memref.atomic_rmw
// SM80:         return
func.func @f16_pair(%b: memref<4x64xf16>, %u: memref<8xf16>, %r: index, %p: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %even = arith.muli %p, %c2 : index
  %x = memref.load %u[%c0] : memref<8xf16>
  %0 = memref.atomic_rmw addf %x, %b[%r, %even] : (f16, memref<4x64xf16>) -> f16
  %next = arith.addi %even, %c1 : index
  %y = memref.load %u[%c1] : memref<8xf16>
  %1 = memref.atomic_rmw addf %y, %b[%r, %next] : (f16, memref<4x64xf16>) -> f16
  return
}

// bf16 pairs have a packed form from sm_90 on.
// SM80-LABEL: func.func @bf16_pair(
// SM80-COUNT-2: memref.atomic_rmw addf
// SM80-NOT:     llvm.inline_asm
// SM90-LABEL: func.func @bf16_pair(
// SM90:         llvm.inline_asm has_side_effects "red.add.noftz.bf16x2 [$0], $1;"
// SM90-NOT:     memref.atomic_rmw
func.func @bf16_pair(%b: memref<64xbf16>, %p: index, %x: bf16, %y: bf16) {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %even = arith.shli %p, %c1 : index
  %0 = memref.atomic_rmw addf %x, %b[%even] : (bf16, memref<64xbf16>) -> bf16
  %next = arith.addi %even, %c1 : index
  %1 = memref.atomic_rmw addf %y, %b[%next] : (bf16, memref<64xbf16>) -> bf16
  return
}

// Not one word, so not packed: an index that may be odd; an odd minor
// extent (rows start at odd elements); a store in between; different rows;
// a maximum (no packed maximum before sm_90's v2 forms).
// SM90-LABEL: func.func @not_pairs(
// SM90-NOT:     llvm.inline_asm
// SM90:         return
func.func @not_pairs(%b: memref<64xf16>, %odd: memref<3x5xf16>, %p: index, %q: index,
                     %x: f16, %y: f16) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %p1 = arith.addi %p, %c1 : index
  %0 = memref.atomic_rmw addf %x, %b[%p] : (f16, memref<64xf16>) -> f16
  %1 = memref.atomic_rmw addf %y, %b[%p1] : (f16, memref<64xf16>) -> f16
  %even = arith.muli %p, %c2 : index
  %even1 = arith.addi %even, %c1 : index
  %2 = memref.atomic_rmw addf %x, %odd[%q, %even] : (f16, memref<3x5xf16>) -> f16
  %3 = memref.atomic_rmw addf %y, %odd[%q, %even1] : (f16, memref<3x5xf16>) -> f16
  %4 = memref.atomic_rmw addf %x, %b[%even] : (f16, memref<64xf16>) -> f16
  memref.store %x, %b[%q] : memref<64xf16>
  %5 = memref.atomic_rmw addf %y, %b[%even1] : (f16, memref<64xf16>) -> f16
  %6 = memref.atomic_rmw addf %x, %odd[%p, %even] : (f16, memref<3x5xf16>) -> f16
  %7 = memref.atomic_rmw addf %y, %odd[%q, %even1] : (f16, memref<3x5xf16>) -> f16
  %8 = memref.atomic_rmw maximumf %x, %b[%even] : (f16, memref<64xf16>) -> f16
  %9 = memref.atomic_rmw maximumf %y, %b[%even1] : (f16, memref<64xf16>) -> f16
  return
}

// f32 adds on sm_90: four neighbours from an index that is a multiple of 4
// (t * 4, then + 1, + 2, + 3) are one red.global.add.v4.f32; two from a
// multiple of 2, one v2; before sm_90 they stay single atomics. Three
// neighbours from a multiple of 4 make one v2 and a single atomic.
// SM90-LABEL: func.func @f32_groups(
// SM90-SAME:    %[[B:.*]]: memref<8x512xf32>, %[[R:.*]]: index, %[[T:.*]]: index
// SM90:         %[[QUAD:.*]] = arith.muli %[[T]], %c4
// SM90:         %[[P4:.*]] = xla_gpu.element_pointer %[[B]][%[[R]], %[[QUAD]]]
// SM90:         llvm.inline_asm has_side_effects "red.global.add.v4.f32 [$0], {$1, $2, $3, $4};", "l,f,f,f,f" %[[P4]]
// SM90:         %[[PAIR:.*]] = arith.muli %[[T]], %c2
// SM90:         %[[P2:.*]] = xla_gpu.element_pointer %[[B]][%[[R]], %[[PAIR]]]
// SM90:         llvm.inline_asm has_side_effects "red.global.add.v2.f32 [$0], {$1, $2};", "l,f,f" %[[P2]]
// SM90:         llvm.inline_asm has_side_effects "red.global.add.v2.f32
// SM90:         memref.atomic_rmw addf
// SM90-NOT:     llvm.inline_asm
// SM90:         return
// SM80-LABEL: func.func @f32_groups(
// SM80-NOT:     llvm.inline_asm
// SM80:         return
func.func @f32_groups(%b: memref<8x512xf32>, %r: index, %t: index, %x: f32, %y: f32) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %q = arith.muli %t, %c4 : index
  %q1 = arith.addi %q, %c1 : index
  %q2 = arith.addi %q, %c2 : index
  %q3 = arith.addi %q, %c3 : index
  %0 = memref.atomic_rmw addf %x, %b[%r, %q] : (f32, memref<8x512xf32>) -> f32
  %1 = memref.atomic_rmw addf %y, %b[%r, %q1] : (f32, memref<8x512xf32>) -> f32
  %2 = memref.atomic_rmw addf %x, %b[%r, %q2] : (f32, memref<8x512xf32>) -> f32
  %3 = memref.atomic_rmw addf %y, %b[%r, %q3] : (f32, memref<8x512xf32>) -> f32
  %p = arith.muli %t, %c2 : index
  %p1 = arith.addi %p, %c1 : index
  %4 = memref.atomic_rmw addf %x, %b[%r, %p] : (f32, memref<8x512xf32>) -> f32
  %5 = memref.atomic_rmw addf %y, %b[%r, %p1] : (f32, memref<8x512xf32>) -> f32
  %s = arith.muli %t, %c4 : index
  %s1 = arith.addi %s, %c1 : index
  %s2 = arith.addi %s, %c2 : index
  %6 = memref.atomic_rmw addf %x, %b[%r, %s] : (f32, memref<8x512xf32>) -> f32
  %7 = memref.atomic_rmw addf %y, %b[%r, %s1] : (f32, memref<8x512xf32>) -> f32
  %8 = memref.atomic_rmw addf %x, %b[%r, %s2] : (f32, memref<8x512xf32>) -> f32
  return
}
