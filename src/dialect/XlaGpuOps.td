//===- XlaGpuOps.td - Operations of the emitters' dialect --*- tablegen -*-===//
#ifndef HLO_DIALECT_XLAGPUOPS_TD
#define HLO_DIALECT_XLAGPUOPS_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/CallInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Dialect/LLVMIR/LLVMOpBase.td"
include "XlaGpuAttrs.td"

class XlaGpu_Op<string mnemonic, list<Trait> traits = []>
    : Op<XlaGpuDialect, mnemonic, traits>;

def XlaGpu_ApplyIndexingOp : XlaGpu_Op<"apply_indexing", [Pure]> {
  let summary = "Evaluates an indexing map";
  let description = [{
    Applies the map to dimension and symbol values; the results are the
    map's results. Points outside the map's domain give unspecified values.

      %r:2 = xla_gpu.apply_indexing #map(%d0, %d1)[%s0]
  }];
  let arguments = (ins Variadic<Index>:$operands,
                       XlaGpu_IndexingMapAttr:$indexing_map);
  let results = (outs Variadic<Index>:$results);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

def XlaGpu_PureCallOp : XlaGpu_Op<"pure_call",
    [Pure, CallOpInterface, DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "A call without side effects";
  let description = [{
    Calls a subgraph function. The callee only reads its tensor arguments,
    so the call may be removed, reordered, or inlined.
  }];
  let arguments = (ins FlatSymbolRefAttr:$callee,
                       Variadic<AnyType>:$operands,
                       OptionalAttr<DictArrayAttr>:$arg_attrs,
                       OptionalAttr<DictArrayAttr>:$res_attrs);
  let results = (outs Variadic<AnyType>);
  let assemblyFormat = [{
    $callee `(` $operands `)` attr-dict `:` functional-type($operands, results)
  }];
  let builders = [
    // A call of `callee` itself: its name and result types.
    OpBuilder<(ins "::mlir::func::FuncOp":$callee, "::mlir::ValueRange":$operands), [{
      build($_builder, $_state, callee.getFunctionType().getResults(),
            ::mlir::FlatSymbolRefAttr::get(callee.getSymNameAttr()), operands,
            ::mlir::ArrayAttr(), ::mlir::ArrayAttr());
    }]>
  ];
  let extraClassDeclaration = [{
    ::mlir::CallInterfaceCallable getCallableForCallee() {
      return getCalleeAttr();
    }
    void setCalleeFromCallable(::mlir::CallInterfaceCallable callee) {
      setCalleeAttr(::llvm::cast<::mlir::FlatSymbolRefAttr>(
          ::llvm::cast<::mlir::SymbolRefAttr>(callee)));
    }
    ::mlir::Operation::operand_range getArgOperands() { return getOperands(); }
    ::mlir::MutableOperandRange getArgOperandsMutable() {
      return getOperandsMutable();
    }
  }];
}

def XlaGpu_YieldOp : XlaGpu_Op<"yield",
    [Pure, Terminator, ReturnLike, ParentOneOf<["LoopOp", "AtomicRMWOp"]>]> {
  let summary = "Ends a loop body (the iteration values) or an atomic update (the new value)";
  let arguments = (ins Variadic<AnyType>:$values);
  let assemblyFormat = "attr-dict ($values^ `:` type($values))?";
  let builders = [OpBuilder<(ins), [{ /* no values */ }]>];
}

def XlaGpu_LoopOp : XlaGpu_Op<"loop", [
    AttrSizedOperandSegments, RecursiveMemoryEffects,
    SingleBlockImplicitTerminator<"YieldOp">]> {
  let summary = "A loop nest over the domain of an indexing map";
  let description = [{
    Iterates over all values of the map's range variables, for the given
    dimension values, skipping points outside the domain; the body receives
    the range variables, the map's results and the iteration values:

      %r = xla_gpu.loop (%tid, %bid)[%i] -> (%x, %y) in #map
               iter_args(%acc = %init) -> (tensor<4x8xf32>) {
        ...
        xla_gpu.yield %next : tensor<4x8xf32>
      }
  }];
  let arguments = (ins Variadic<Index>:$dims,
                       XlaGpu_IndexingMapAttr:$indexing_map,
                       Variadic<AnyType>:$inits);
  let results = (outs Variadic<AnyType>:$results);
  let regions = (region SizedRegion<1>:$region);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// Block arguments: range variables, map results, iteration values.
    ::mlir::ValueRange getRangeVars();
    ::mlir::ValueRange getMapResults();
    ::mlir::ValueRange getIterArgs();
  }];
}

//===----------------------------------------------------------------------===//
// Cooperation between threads (the reduction and transpose heroes)
//===----------------------------------------------------------------------===//

def XlaGpu_AllocateSharedOp : XlaGpu_Op<"allocate_shared",
    [MemoryEffects<[MemAlloc]>]> {
  let summary = "A tile of shared memory for the block";
  let description = [{
    A statically shaped tensor that lives in the block's shared memory:
    every thread of the block sees the same tile. Its contents are
    undefined until written; threads read what others wrote only after a
    `sync_threads`. Each op is a tile of its own (never merged). It starts
    at a multiple of `alignment` bytes (at least 16: ldmatrix's rows; a
    swizzled wgmma tile asks for its swizzle atom's).

      %tile = xla_gpu.allocate_shared : tensor<32x33xf32>
      %atoms = xla_gpu.allocate_shared {alignment = 1024 : i64} : tensor<2x64x64xbf16>
  }];
  let arguments = (ins OptionalAttr<I64Attr>:$alignment);
  let results = (outs AnyStaticShapeTensor:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
  let builders = [OpBuilder<(ins "::mlir::Type":$type), [{
    build($_builder, $_state, type, ::mlir::IntegerAttr());
  }]>];
}

def XlaGpu_SyncThreadsOp : XlaGpu_Op<"sync_threads",
    [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "Waits for every thread of the block (a barrier), or of its cluster";
  let description = [{
    Returns when all threads of the block have reached it; the results are
    the shared tiles given, now holding what every thread wrote before the
    barrier. All threads must reach it.

    With `cluster`, every thread of the block's thread-block cluster
    (sm_90: PTX's `barrier.cluster.arrive` then `barrier.cluster.wait`,
    release and acquire at cluster scope; every non-exited thread of the
    cluster must reach it): what the cluster's threads did before it,
    mbarrier initializations included, is seen by all after it. The
    sync_threads lowering keeps a cluster barrier, without its tiles, for
    the target to lower.

      %tiles:2 = xla_gpu.sync_threads %a, %b : tensor<8x33xf32>, tensor<8x33xi32>
      xla_gpu.sync_threads {cluster}
  }];
  let arguments = (ins Variadic<AnyStaticShapeTensor>:$tiles, UnitAttr:$cluster);
  let results = (outs Variadic<AnyStaticShapeTensor>:$results);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let builders = [OpBuilder<(ins "::mlir::ValueRange":$tiles, CArg<"bool", "false">:$cluster), [{
    build($_builder, $_state, tiles.getTypes(), tiles,
          cluster ? $_builder.getUnitAttr() : ::mlir::UnitAttr());
  }]>];
}

def XlaGpu_ShuffleReduceOp : XlaGpu_Op<"shuffle_reduce",
    [Pure, DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "Reduces values across the lanes of a warp";
  let description = [{
    A tree reduction through warp shuffles: for distance = `max_distance`,
    `max_distance` / 2, ..., 1, each lane combines its values with those of
    the lane `distance` above it using the combiner (a function taking the
    accumulators then the values, returning the accumulators). Afterwards
    lane i holds the combination of lanes i .. i + 2 * max_distance - 1, so
    with `to 16` lane 0 holds the whole warp's. All lanes of the warp must
    take part.

      %sum, %index = xla_gpu.shuffle_reduce(%a, %i) to 16 combiner=@argmax : f32, i32
  }];
  let arguments = (ins Variadic<AnyType>:$operands, I64Attr:$max_distance,
                       FlatSymbolRefAttr:$combiner);
  let results = (outs Variadic<AnyType>:$results);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let builders = [OpBuilder<(ins "::mlir::func::FuncOp":$combiner,
                                 "::mlir::ValueRange":$operands,
                                 "int64_t":$maxDistance), [{
    build($_builder, $_state, operands.getTypes(), operands,
          $_builder.getI64IntegerAttr(maxDistance),
          ::mlir::FlatSymbolRefAttr::get(combiner.getSymNameAttr()));
  }]>];
}

def XlaGpu_MmaSyncOp : XlaGpu_Op<"mma_sync", [MemoryEffects<[MemRead]>]> {
  let summary = "One warp's tensor-core multiply-accumulate of a tile (mma.sync)";
  let description = [{
    D = A * B + C over one M x N x K tile, computed by all 32 lanes of the
    warp together (PTX's `mma.sync.aligned`, A row-major, B column-major).
    Each lane holds its fragment of every operand as a vector, its values
    in the order the PTX ISA numbers them (a0, a1, ...): A has M*K/32
    values, B N*K/32, C and D M*N/32. The shapes and types:

      shape [16, 8, 16]  A, B: bf16 or f16       C, D: f32
      shape [16, 8, 8]   A, B: f32 with `tf32`   C, D: f32
      shape [8, 8, 4]    A, B: f64               C, D: f64
      shape [16, 8, 32]  A, B: i8 (signed)       C, D: i32 (wrapping)
      shape [16, 8, 32]  A, B: f8E4M3FN, f8E5M2  C, D: f32 (A's and B's may differ)

    With `tf32`, only each f32 input's top 19 bits count. Every lane of the
    warp must run it, with the same shape and types. It is convergent:
    modelled as reading memory, so that no pass sinks it into or hoists
    it out of control flow that lanes may take differently.

      %d = xla_gpu.mma_sync %a, %b, %c {shape = array<i64: 16, 8, 16>}
          : vector<8xbf16>, vector<4xbf16>, vector<4xf32> -> vector<4xf32>
  }];
  let arguments = (ins AnyVectorOfNonZeroRank:$a, AnyVectorOfNonZeroRank:$b,
                       AnyVectorOfNonZeroRank:$c, DenseI64ArrayAttr:$shape,
                       UnitAttr:$tf32);
  let results = (outs AnyVectorOfNonZeroRank:$d);
  let assemblyFormat = [{
    $a `,` $b `,` $c attr-dict `:` type($a) `,` type($b) `,` type($c) `->` type($d)
  }];
  let hasVerifier = 1;
}

def XlaGpu_LdmatrixOp : XlaGpu_Op<"ldmatrix", [MemoryEffects<[MemRead]>]> {
  let summary = "One warp's load of 8 x 8 matrices of a shared tile (ldmatrix)";
  let description = [{
    PTX's `ldmatrix.sync.aligned.m8n8.x{count}.shared.b16`: lanes 8i to
    8i+7 each name the start of one row (16 bytes) of matrix i, as an index
    into a 2-D shared tile (`count` is 1, 2 or 4; the indices of the lanes
    past 8 * count are not read, but must lie in the tile). Each lane
    receives one 32-bit word of every matrix: word lane % 4 of row
    lane / 4, matrix 0's first. The result holds those words as elements
    of the tile's type (8-, 16- or 32-bit, low bits first): the mma.sync
    fragments of A and B (row-major A, column-major B) in the PTX ISA's
    order, for elements of 8 to 32 bits. Rows must be 16-byte aligned.
    With `transpose` (16-bit elements only, `.trans`), each matrix is read
    transposed: a lane receives elements (2 * (lane % 4), lane / 4) and
    (2 * (lane % 4) + 1, lane / 4), so that fragments come out of a tile
    stored K by rows.

    On a tensor (before bufferization) or the tile's buffer. Every lane of
    the warp must run it; like mma_sync it is modelled as reading memory,
    so that it stays where the lanes converge and after the barrier that
    completes the tile.

      %a = xla_gpu.ldmatrix %tile[%row, %column] {count = 4 : i64}
          : tensor<64x40xbf16> -> vector<8xbf16>
  }];
  let arguments = (ins AnyTypeOf<[AnyStaticShapeTensor, AnyStaticShapeMemRef]>:$tile,
                       Variadic<Index>:$indices, I64Attr:$count, UnitAttr:$transpose);
  let results = (outs AnyVectorOfNonZeroRank:$result);
  let assemblyFormat = [{
    $tile `[` $indices `]` attr-dict `:` type($tile) `->` type($result)
  }];
  let hasVerifier = 1;
}

def XlaGpu_WgmmaOp : XlaGpu_Op<"wgmma", [MemoryEffects<[MemRead]>]> {
  let summary = "One warpgroup's tensor-core product of shared tiles (wgmma)";
  let description = [{
    D = A * B^T + C for one warpgroup (128 threads, all of which must run
    it): A is 64 rows of `a` from core-matrix row `a_row` on, B is N rows
    of `b` from core-matrix row `b_row` on, both over the tiles' whole K
    extent; D is 64 x N in f32. PTX's `wgmma.mma_async` m64nNk16 (m64nNk8
    for TF32, m64nNk32 for 8-bit floats), one per 32 bytes of K, issued,
    committed and waited for within the op, so that it is synchronous to
    its users.

    Both tiles hold bf16, f16 or f32 (as TF32: only each value's top 19
    bits count), the same, or 8-bit floats (f8E4M3FN or f8E5M2, alike or
    mixed), K-major; with E the elements of 16 bytes (8, 4 or 16):
     - `swizzle` 0: as 8 x E core matrices, element (row, k) of a
       [R/8][K/E][8][E] tile at [row / 8][k / E][row % 8][k % E], so that
       each core matrix is 128 contiguous bytes;
     - `swizzle` S = 32, 64 or 128 (bytes): as rows of S bytes, element
       (row, k) of a [K*16/(E*S)][R][S*E/16] tile at [k / (S*E/16)][row]
       [k % (S*E/16)] before the swizzle, which XORs bits 4 and up of each element's byte offset
       in the tile (1, 2 or 3 of them: log2(S / 16)) with its bits 7 and
       up; the tile must start at a multiple of 8 * S bytes in shared
       memory (allocate_shared's alignment), and R is a multiple of 8.
    N is a multiple of 8 up to 256; the
    accumulators are N / 2 values per thread in the PTX ISA's order: value
    4j + i of thread 32w + 4r + c is D's row 16w + r + 8(i / 2), column
    8j + 2c + i % 2.

    On tensors (before bufferization) or the tiles' buffers. The writes
    that made the tiles must be complete in the block (a barrier) before
    it runs; like mma_sync it is modelled as reading memory.

    With `b_transposed` (16-bit, swizzled), B is N-major (PTX's
    imm-trans-b): a [N*16/(E*S)][K][S*E/16] tile of S-byte rows along N,
    one a k, element (n, k) at [n / (S*E/16)][k][n % (S*E/16)] before the
    same swizzle; `b_row`'s 8-row groups start a whole row of N. With
    `a_transposed`, likewise A is M-major (imm-trans-a): a
    [M*16/(E*S)][K][S*E/16] tile, `a_row`'s 8-row groups starting a whole
    row of M.

    With `in_flight`, the op only issues its wgmmas and commits them as one
    group (PTX's `wgmma.commit_group`): D is in flight, and the tiles are
    read at any time until the group retires. D may then only be C of the
    warpgroup's next in-flight wgmma (which accumulates into the same
    registers, in order) or the operand of `xla_gpu.wgmma_wait`, and the
    tiles must not be overwritten until a wait has retired the group.

      %d = xla_gpu.wgmma %a[%ar], %b[%br], %c
          : tensor<8x4x8x8xbf16>, tensor<4x4x8x8xbf16>, vector<16xf32> -> vector<16xf32>
  }];
  let arguments = (ins AnyTypeOf<[AnyStaticShapeTensor, AnyStaticShapeMemRef]>:$a, Index:$a_row,
                       AnyTypeOf<[AnyStaticShapeTensor, AnyStaticShapeMemRef]>:$b, Index:$b_row,
                       VectorOfRankAndType<[1], [F32]>:$c,
                       DefaultValuedAttr<I64Attr, "0">:$swizzle,
                       UnitAttr:$in_flight, UnitAttr:$b_transposed,
                       UnitAttr:$a_transposed);
  let results = (outs VectorOfRankAndType<[1], [F32]>:$d);
  let assemblyFormat = [{
    $a `[` $a_row `]` `,` $b `[` $b_row `]` `,` $c attr-dict `:` type($a) `,` type($b) `,`
    type($c) `->` type($d)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// N: the columns of D.
    int64_t getWidth() { return 2 * getD().getType().getNumElements(); }
    /// The K extent of the tiles.
    int64_t getDepth() {
      auto tile = ::llvm::cast<::mlir::ShapedType>(getA().getType());
      if (getATransposed())
        return tile.getDimSize(1);
      return getSwizzle() == 0 ? tile.getDimSize(1) * tile.getDimSize(3)
                               : tile.getDimSize(0) * tile.getDimSize(2);
    }
    /// The K columns of one wgmma instruction (32 bytes of a row).
    int64_t getStepDepth() {
      auto tile = ::llvm::cast<::mlir::ShapedType>(getA().getType());
      return 256 / tile.getElementType().getIntOrFloatBitWidth();
    }
    /// The rows of a tile (A's or B's; an MN-major one's columns).
    static int64_t rowsOf(::mlir::ShapedType tile, int64_t swizzle, bool transposed = false) {
      if (transposed)
        return tile.getDimSize(0) * tile.getDimSize(2);
      return swizzle == 0 ? tile.getDimSize(0) * 8 : tile.getDimSize(1);
    }
  }];
}

def XlaGpu_WgmmaWaitOp : XlaGpu_Op<"wgmma_wait", [MemoryEffects<[MemRead, MemWrite]>,
    AllTypesMatch<["accumulators", "result"]>]> {
  let summary = "Waits until at most `pending` wgmma groups are in flight";
  let description = [{
    PTX's `wgmma.wait_group`: returns once at most `pending` of the
    warpgroup's committed wgmma groups (`xla_gpu.wgmma {in_flight}`) have
    not retired; all 128 threads of the warpgroup run it. `accumulators`,
    the D of the latest group, pass through: with `pending` 0 they are
    complete and may be read; otherwise they may still be in flight (C of
    the next group only). The tiles a retired group read may be
    overwritten once every warpgroup reading them has waited (a barrier
    that follows). Modelled as reading and writing memory, so that no
    shared-memory access moves across it.

      %d = xla_gpu.wgmma_wait %c {pending = 1 : i64} : vector<64xf32>
  }];
  let arguments = (ins VectorOfRankAndType<[1], [F32]>:$accumulators, I64Attr:$pending);
  let results = (outs VectorOfRankAndType<[1], [F32]>:$result);
  let assemblyFormat = [{ $accumulators attr-dict `:` type($accumulators) }];
  let builders = [OpBuilder<(ins "::mlir::Value":$accumulators, "int64_t":$pending), [{
    build($_builder, $_state, accumulators.getType(), accumulators,
          $_builder.getI64IntegerAttr(pending));
  }]>];
  let hasVerifier = 1;
}

def XlaGpu_AsyncCopyOp : XlaGpu_Op<"async_copy",
    [AttrSizedOperandSegments, MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "A thread's asynchronous copy from global memory into a shared tile";
  let description = [{
    PTX's `cp.async`: copies `bytes` (4, 8 or 16) bytes, consecutive
    elements along the last dimension of both, from `source` (a kernel
    buffer) at `source_indices` into `tile` (shared) at `tile_indices`; or,
    where `condition` is false, writes that many zero bytes there (and
    reads nothing). Both addresses are aligned to `bytes`. The copy is
    done only after an `async_wait` that covers its group (`async_commit`)
    and then, for other threads, a barrier: nothing may read those bytes
    of the tile before.

    On tensors (the tile's new value is the result) or on buffers (no
    result):

      %t1 = xla_gpu.async_copy %a[%i, %k] into %t0[%r, %c] if %in {bytes = 16 : i64}
          : tensor<256x64xbf16>, tensor<64x40xbf16> -> tensor<64x40xbf16>
  }];
  let arguments = (ins AnyTypeOf<[AnyStaticShapeTensor, AnyStaticShapeMemRef]>:$source,
                       Variadic<Index>:$source_indices,
                       AnyTypeOf<[AnyStaticShapeTensor, AnyStaticShapeMemRef]>:$tile,
                       Variadic<Index>:$tile_indices, I1:$condition, I64Attr:$bytes);
  let results = (outs Optional<AnyStaticShapeTensor>:$result);
  let assemblyFormat = [{
    $source `[` $source_indices `]` `into` $tile `[` $tile_indices `]` `if` $condition attr-dict
    `:` type($source) `,` type($tile) (`->` type($result)^)?
  }];
  let hasVerifier = 1;
}

def XlaGpu_AsyncCommitOp : XlaGpu_Op<"async_commit", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "Closes the thread's group of async copies";
  let description = [{
    PTX's `cp.async.commit_group`: the running thread's `async_copy`s since
    its last commit form a group, which `async_wait` counts. The tiles the
    copies wrote pass through (so that the copies come before it; without
    tiles, after bufferization, it orders by its memory effects alone).

      %t = xla_gpu.async_commit %a, %b : tensor<64x40xbf16>, tensor<32x40xbf16>
  }];
  let arguments = (ins Variadic<AnyType>:$tiles);
  let results = (outs Variadic<AnyType>:$results);
  let hasCustomAssemblyFormat = 1;
  let builders = [OpBuilder<(ins "::mlir::ValueRange":$tiles), [{
    build($_builder, $_state, tiles.getTypes(), tiles);
  }]>];
  let hasVerifier = 1;
}

def XlaGpu_AsyncWaitOp : XlaGpu_Op<"async_wait", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "Waits for all but the last groups of the thread's async copies";
  let description = [{
    PTX's `cp.async.wait_group`: returns once at most `pending` of the
    running thread's committed groups are incomplete. The tiles pass
    through, as through async_commit; other threads see the copies only
    after a barrier that follows.

      %t = xla_gpu.async_wait %a {pending = 1 : i64} : tensor<64x40xbf16>
      xla_gpu.async_wait {pending = 0 : i64}
  }];
  let arguments = (ins Variadic<AnyType>:$tiles, I64Attr:$pending);
  let results = (outs Variadic<AnyType>:$results);
  let hasCustomAssemblyFormat = 1;
  let builders = [OpBuilder<(ins "::mlir::ValueRange":$tiles, "int64_t":$pending), [{
    build($_builder, $_state, tiles.getTypes(), tiles, $_builder.getI64IntegerAttr(pending));
  }]>];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Hopper's asynchronous copy pipeline: mbarriers and TMA loads
//===----------------------------------------------------------------------===//

def XlaGpu_MbarrierInitOp : XlaGpu_Op<"mbarrier_init", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "Initializes one mbarrier of a shared array of them";
  let description = [{
    PTX's `mbarrier.init.shared.b64`: barrier `index` of `barriers` (a
    shared i64 array, one 8-byte mbarrier object each) starts phase 0,
    expecting `count` arrivals (1 to 2^20 - 1) and no transaction bytes a
    phase. One thread initializes each barrier; the block's other threads
    may use it after a barrier (`sync_threads`).

    On tensors (the array's new value is the result) or on buffers:

      %b1 = xla_gpu.mbarrier_init %b0[%i] {count = 1 : i64} : tensor<4xi64> -> tensor<4xi64>
  }];
  let arguments = (ins AnyTypeOf<[AnyStaticShapeTensor, AnyStaticShapeMemRef]>:$barriers,
                       Index:$index, I64Attr:$count);
  let results = (outs Optional<AnyStaticShapeTensor>:$result);
  let assemblyFormat = [{
    $barriers `[` $index `]` attr-dict `:` type($barriers) (`->` type($result)^)?
  }];
  let hasVerifier = 1;
}

def XlaGpu_MbarrierArriveOp : XlaGpu_Op<"mbarrier_arrive",
    [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "One arrival at an mbarrier, expecting transaction bytes";
  let description = [{
    PTX's `mbarrier.arrive.expect_tx.shared.b64` (plain `mbarrier.arrive`
    for 0 bytes): the running thread's arrival at barrier `index`, whose
    current phase then also awaits `transaction_bytes` more bytes of TMA
    loads (`tma_load`) completing on it. A phase completes when all its
    arrivals and bytes have come.

    With `in_block`, the arrival (without bytes) is at the same barrier of
    block `in_block` (its %cluster_ctarank) of the running block's
    thread-block cluster: PTX's `mapa` of the barrier's address, then
    `mbarrier.arrive.release.cluster.shared::cluster`.

      %b1 = xla_gpu.mbarrier_arrive %b0[%i] {transaction_bytes = 32768 : i64}
          : tensor<4xi64> -> tensor<4xi64>
      %b2 = xla_gpu.mbarrier_arrive %b1[%i] in_block %peer : tensor<4xi64> -> tensor<4xi64>
  }];
  let arguments = (ins AnyTypeOf<[AnyStaticShapeTensor, AnyStaticShapeMemRef]>:$barriers,
                       Index:$index, Optional<Index>:$in_block,
                       DefaultValuedAttr<I64Attr, "0">:$transaction_bytes);
  let results = (outs Optional<AnyStaticShapeTensor>:$result);
  let assemblyFormat = [{
    $barriers `[` $index `]` (`in_block` $in_block^)? attr-dict `:` type($barriers)
    (`->` type($result)^)?
  }];
  let hasVerifier = 1;
}

def XlaGpu_MbarrierWaitOp : XlaGpu_Op<"mbarrier_wait", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "Waits until an mbarrier's phase of a parity has completed";
  let description = [{
    A loop on PTX's `mbarrier.try_wait.parity.shared.b64`: returns once
    the phase of barrier `index` whose parity is `parity` (0 or 1: the
    phase number's low bit) has completed. Where that phase is not the
    current one (it completed before), it returns at once: the caller must
    track each barrier's phases. The tiles that TMA loads completing on
    the barrier filled pass through (so that their readers follow the
    wait; without tiles, after bufferization, it keeps its place by its
    memory effects).

      %t:2 = xla_gpu.mbarrier_wait %b[%i], %parity, %a, %b
          : tensor<4xi64>, tensor<1x128x64xbf16>, tensor<1x128x64xbf16>
  }];
  let arguments = (ins AnyTypeOf<[AnyStaticShapeTensor, AnyStaticShapeMemRef]>:$barriers,
                       Index:$index, Index:$parity, Variadic<AnyType>:$tiles);
  let results = (outs Variadic<AnyType>:$results);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let builders = [OpBuilder<(ins "::mlir::Value":$barriers, "::mlir::Value":$index,
                                 "::mlir::Value":$parity, "::mlir::ValueRange":$tiles), [{
    build($_builder, $_state, tiles.getTypes(), barriers, index, parity, tiles);
  }]>];
}

def XlaGpu_TmaLoadOp : XlaGpu_Op<"tma_load",
    [AttrSizedOperandSegments, MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "A TMA load of a box of a kernel buffer into a shared tile";
  let description = [{
    PTX's `cp.async.bulk.tensor.Nd.shared::cluster.global.mbarrier::
    complete_tx::bytes`: the copy engine moves the box of `source` (a
    kernel parameter the launch passes as a tensor map of that `box` and
    `swizzle`, see abi::TensorMapSpec) whose first element is at
    `coordinates` into `tile` (from `tile_indices` on, if given: one
    atom of a tile of several boxes), and its bytes complete on barrier
    `barrier_index` of `barriers`. The coordinates, like the box, are in
    the order of the buffer's layout, most minor dimension first, and may
    lie outside it: elements outside read as zero. The tile holds the box
    in that order (dimension 0 fastest), its addresses permuted by the
    `swizzle`-byte pattern (0, 32, 64 or 128) wgmma's descriptors read;
    it must start at a multiple of 8 * swizzle bytes (128 without). One
    thread issues it; the tile may be read only after a wait on the
    barrier's phase (`mbarrier_wait`).

    A non-zero `multicast` is a mask of blocks of the running block's
    thread-block cluster (bit r: %cluster_ctarank r, 16 at most): the box
    lands at the tile's offset in each of their shared memories, and its
    bytes complete on the barrier at the same offset in each
    (`.multicast::cluster`).

      %t1 = xla_gpu.tma_load %a[%k, %row] into %t0 barrier %b[%s]
          {box = array<i64: 64, 128>, swizzle = 128 : i64}
          : tensor<256x512xbf16>, tensor<1x128x64xbf16>, tensor<4xi64> -> tensor<1x128x64xbf16>
  }];
  let arguments = (ins AnyTypeOf<[AnyStaticShapeTensor, AnyStaticShapeMemRef]>:$source,
                       Variadic<Index>:$coordinates,
                       AnyTypeOf<[AnyStaticShapeTensor, AnyStaticShapeMemRef]>:$tile,
                       Variadic<Index>:$tile_indices,
                       AnyTypeOf<[AnyStaticShapeTensor, AnyStaticShapeMemRef]>:$barriers,
                       Index:$barrier_index, DenseI64ArrayAttr:$box,
                       DefaultValuedAttr<I64Attr, "0">:$swizzle,
                       DefaultValuedAttr<I64Attr, "0">:$multicast);
  let results = (outs Optional<AnyStaticShapeTensor>:$result);
  let assemblyFormat = [{
    $source `[` $coordinates `]` `into` $tile (`[` $tile_indices^ `]`)? `barrier` $barriers
    `[` $barrier_index `]`
    attr-dict `:` type($source) `,` type($tile) `,` type($barriers) (`->` type($result)^)?
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The bytes one load moves (what the barrier's phase awaits).
    int64_t getBoxBytes();
  }];
}

def XlaGpu_StmatrixOp : XlaGpu_Op<"stmatrix", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "One warp's store of 8 x 8 16-bit matrices into a shared tile (stmatrix)";
  let description = [{
    PTX's `stmatrix.sync.aligned.m8n8.x{count}.shared.b16`, the inverse of
    `ldmatrix`: lanes 8i to 8i+7 each name the start of one row (16
    bytes) of matrix i, as indices into `tile` (its last dimension holds
    the row's 8 elements; `count` is 1, 2 or 4, and the indices of the
    lanes past 8 * count are not read but must lie in the tile). Each
    lane gives one 32-bit word of every matrix, `values`' elements 2j and
    2j + 1 being elements 2 * (lane % 4) and 2 * (lane % 4) + 1 of row
    lane / 4 of matrix j: the order of an mma.sync or wgmma accumulator
    fragment's pairs.

    The stores are then made visible to the asynchronous proxy (PTX's
    `fence.proxy.async.shared::cta` by every lane) and the warp meets
    (`bar.warp.sync`), so that any lane may next issue a `tma_store` of
    the matrices. Every lane of the warp must run it. On a tensor (the
    updated tile) or the tile's buffer.

      %t1 = xla_gpu.stmatrix %v into %t0[%b, %row, %column] {count = 4 : i64}
          : vector<8xbf16>, tensor<16x16x64xbf16> -> tensor<16x16x64xbf16>
  }];
  let arguments = (ins VectorOfRankAndType<[1], [BF16, F16]>:$values,
                       AnyTypeOf<[AnyStaticShapeTensor, AnyStaticShapeMemRef]>:$tile,
                       Variadic<Index>:$indices, I64Attr:$count);
  let results = (outs Optional<AnyStaticShapeTensor>:$result);
  let assemblyFormat = [{
    $values `into` $tile `[` $indices `]` attr-dict `:` type($values) `,` type($tile)
    (`->` type($result)^)?
  }];
  let hasVerifier = 1;
}

def XlaGpu_TmaStoreOp : XlaGpu_Op<"tma_store",
    [AttrSizedOperandSegments, MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "A TMA store of a shared tile's box into a kernel buffer";
  let description = [{
    PTX's `cp.async.bulk.tensor.Nd.global.shared::cta.bulk_group`
    followed by `cp.async.bulk.commit_group`: the copy engine moves the
    box at `tile` (from `tile_indices` on, if given) into `destination`
    (an output the launch passes as a tensor map of that `box` and
    `swizzle`, abi::TensorMapSpec) from `coordinates` on (most minor
    dimension first, like `tma_load`'s); elements of the box outside the
    destination are not written. The tile holds the box as `tma_load`
    leaves one, its addresses permuted by the `swizzle`-byte pattern, and
    starts at a multiple of 8 * swizzle bytes (128 without). The store is
    committed as one bulk group of the issuing thread: the tile must not
    be written, and the destination not read, until a `tma_store_wait`
    of that thread has retired the group (a host launch faults on either,
    and on a thread that exits with stores in flight). One thread issues
    it, after the writes that made the box are visible to the
    asynchronous proxy (`stmatrix` makes them so).

      %o1 = xla_gpu.tma_store %t[%b, %z, %z] into %o0[%column, %row]
          {box = array<i64: 64, 16>, swizzle = 128 : i64}
          : tensor<16x16x64xbf16>, tensor<4096x4096xbf16> -> tensor<4096x4096xbf16>
  }];
  let arguments = (ins AnyTypeOf<[AnyStaticShapeTensor, AnyStaticShapeMemRef]>:$tile,
                       Variadic<Index>:$tile_indices,
                       AnyTypeOf<[AnyStaticShapeTensor, AnyStaticShapeMemRef]>:$destination,
                       Variadic<Index>:$coordinates, DenseI64ArrayAttr:$box,
                       DefaultValuedAttr<I64Attr, "0">:$swizzle);
  let results = (outs Optional<AnyStaticShapeTensor>:$result);
  let assemblyFormat = [{
    $tile (`[` $tile_indices^ `]`)? `into` $destination `[` $coordinates `]`
    attr-dict `:` type($tile) `,` type($destination) (`->` type($result)^)?
  }];
  let hasVerifier = 1;
}

def XlaGpu_TmaStoreWaitOp : XlaGpu_Op<"tma_store_wait", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "Waits for the running thread's older TMA stores";
  let description = [{
    PTX's `cp.async.bulk.wait_group[.read] pending`: returns once at most
    `pending` of the thread's most recent `tma_store` groups are in
    flight; with `read`, once the older ones have read their tiles (which
    may then be written again), else once their writes are done.

      xla_gpu.tma_store_wait {pending = 1 : i64, read}
  }];
  let arguments = (ins I64Attr:$pending, UnitAttr:$read);
  let assemblyFormat = "attr-dict";
  let hasVerifier = 1;
}

def XlaGpu_SetMaxRegistersOp : XlaGpu_Op<"set_max_registers",
    [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "Moves registers between a block's warpgroups";
  let description = [{
    PTX's `setmaxnreg.{inc,dec}.sync.aligned.u32`: the running warpgroup's
    registers per thread become `count` (a multiple of 8, 24 to 256),
    given back to the block's pool (`increase` absent: at most the current
    count) or taken from it (`increase`: at least the current count;
    waits until other warpgroups have given back enough). Every thread of
    a warpgroup runs the same one. A warp-specialized kernel lowers its
    producer's registers and raises its consumers'.

      xla_gpu.set_max_registers {count = 232 : i64, increase}
  }];
  let arguments = (ins I64Attr:$count, UnitAttr:$increase);
  let assemblyFormat = "attr-dict";
  let hasVerifier = 1;
}

def XlaGpu_PredicatedInsertOp : XlaGpu_Op<"predicated_insert",
    [Pure, TypesMatchWith<"the result is the destination's type", "dest", "result", "$_self">,
     TypesMatchWith<"the value is an element of the destination", "dest", "value",
                    "::llvm::cast<::mlir::TensorType>($_self).getElementType()">]> {
  let summary = "Inserts an element if a condition holds";
  let description = [{
    `tensor.insert` when `condition` is true, else the destination
    unchanged: how the threads that own an output element write it.

      %out = xla_gpu.predicated_insert %v into %t[%i, %j] if %c : tensor<17x19xf32>
  }];
  let arguments = (ins I1:$condition, AnyType:$value, AnyRankedTensor:$dest,
                       Variadic<Index>:$indices);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $value `into` $dest `[` $indices `]` `if` $condition attr-dict `:` type($dest)
  }];
  let hasVerifier = 1;
}

def XlaGpu_PredicatedExtractOp : XlaGpu_Op<"predicated_extract",
    [Pure, TypesMatchWith<"the result is an element of the source", "src", "result",
                          "::llvm::cast<::mlir::TensorType>($_self).getElementType()">,
     TypesMatchWith<"the fallback is an element of the source", "src", "fallback",
                    "::llvm::cast<::mlir::TensorType>($_self).getElementType()">]> {
  let summary = "Extracts an element if a condition holds, else a fallback";
  let description = [{
    `tensor.extract` when `condition` is true, else `fallback` (the
    reduction's init for threads that read no partial result); the element
    is not read when the condition is false.

      %v = xla_gpu.predicated_extract %t[%i, %j] if %c else %init : tensor<8x33xf32>
  }];
  let arguments = (ins I1:$condition, AnyType:$fallback, AnyRankedTensor:$src,
                       Variadic<Index>:$indices);
  let results = (outs AnyType:$result);
  let assemblyFormat = [{
    $src `[` $indices `]` `if` $condition `else` $fallback attr-dict `:` type($src)
  }];
  let hasVerifier = 1;
}


def XlaGpu_AtomicRMWOp : XlaGpu_Op<"atomic_rmw", [
    SingleBlockImplicitTerminator<"YieldOp">,
    TypesMatchWith<"the result is the input's type", "input", "result", "$_self">]> {
  let summary = "Atomically replaces one element by a function of its value";
  let description = [{
    The element of `input` at `indices` becomes what the region yields for
    its current value, atomically with respect to the other threads (a
    scatter's combiner where several updates may meet one element). The
    result is the updated tensor; the update happens in the input's buffer.

      %out = xla_gpu.atomic_rmw %t[%i, %j] : tensor<8x8xf32> {
      ^bb0(%current: f32):
        %sum = arith.addf %current, %update : f32
        xla_gpu.yield %sum : f32
      }

    One-shot bufferization turns it into memref.generic_atomic_rmw on the
    input's buffer (pipeline/AtomicRmwBufferization.cpp); combiners with a
    native atomic become memref.atomic_rmw (xla-gpu-lower-atomic-rmw).
  }];
  let arguments = (ins AnyRankedTensor:$input, Variadic<Index>:$indices);
  let results = (outs AnyRankedTensor:$result);
  let regions = (region SizedRegion<1>:$computation);
  let assemblyFormat = [{
    $input `[` $indices `]` `:` type($input) $computation attr-dict
  }];
  let hasVerifier = 1;
}

def XlaGpu_ElementPointerOp : XlaGpu_Op<"element_pointer", [Pure]> {
  let summary = "The address of one element of a buffer, as an LLVM pointer";
  let description = [{
    For accesses that LLVM-level code makes on a buffer (a compare-and-swap
    loop on a byte, an atomic in inline PTX): the address of
    `memref[indices]`, lowered by each target's conversion with the
    buffer's descriptor (pipeline/ElementPointerToLlvm.cpp), so that the
    pointer keeps its 64 bits however wide the kernel's indices are.

      %p = xla_gpu.element_pointer %buffer[%i, %j] : memref<8x8xf16> -> !llvm.ptr
  }];
  let arguments = (ins AnyStridedMemRef:$memref, Variadic<Index>:$indices);
  let results = (outs LLVM_AnyPointer:$result);
  let assemblyFormat =
      "$memref `[` $indices `]` attr-dict `:` type($memref) `->` type($result)";
  let hasVerifier = 1;
}

#endif // HLO_DIALECT_XLAGPUOPS_TD
