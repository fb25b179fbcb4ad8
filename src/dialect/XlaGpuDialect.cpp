//===- XlaGpuDialect.cpp - The emitters' dialect --------------------------===//
//
// Registration, the indexing-map attribute's syntax, and the custom syntax
// and verifiers of the ops (XlaGpuOps.td); pure_call may be inlined.
//
//===----------------------------------------------------------------------===//
#include "dialect/XlaGpuDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Transforms/InliningUtils.h"

#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace hlo;
using namespace hlo::xla_gpu;

#include "dialect/XlaGpuDialect.cpp.inc"

namespace {

/// Pure calls may be inlined; the loop's body may receive inlined code.
struct XlaGpuInlinerInterface : public DialectInlinerInterface {
  using DialectInlinerInterface::DialectInlinerInterface;
  /// The pipeline inlines subgraphs itself (xla-gpu-inline-subgraphs, which
  /// merges equal calls first); upstream's inliner may inline any of them.
  bool isLegalToInline(Operation *, Operation *, bool) const final { return true; }
  bool isLegalToInline(Region *, Region *, bool, IRMapping &) const final {
    return true;
  }
  bool isLegalToInline(Operation *, Region *, bool, IRMapping &) const final {
    return true;
  }
};

} // namespace

void XlaGpuDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "dialect/XlaGpuAttrs.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "dialect/XlaGpuOps.cpp.inc"
      >();
  addInterfaces<XlaGpuInlinerInterface>();
}

//===----------------------------------------------------------------------===//
// IndexingMapAttr
//===----------------------------------------------------------------------===//

Attribute IndexingMapAttr::parse(AsmParser &parser, Type) {
  std::string text;
  SMLoc location = parser.getCurrentLocation();
  if (parser.parseLess() || parser.parseString(&text) || parser.parseGreater())
    return {};
  llvm::Expected<IndexingMap> map = parseIndexingMap(text, parser.getContext());
  if (!map) {
    parser.emitError(location, "invalid indexing map: ")
        << llvm::toString(map.takeError());
    return {};
  }
  return IndexingMapAttr::get(parser.getContext(), *map);
}

void IndexingMapAttr::print(AsmPrinter &printer) const {
  std::string text = getIndexingMap().toString();
  for (char &c : text)
    if (c == '\n')
      c = ' ';
  printer << "<\"" << text << "\">";
}

/// `<grid = [x, y, z], block = [x, y, z]` then, each only when set,
/// `, cluster = [x, y, z]`, `, dynamic_shared_memory = N`,
/// `, max_registers = N`, in that order, and `>`.
Attribute LaunchAttr::parse(AsmParser &parser, Type) {
  SmallVector<int64_t> grid, block, cluster;
  int64_t dynamicSharedMemory = 0, maxRegisters = 0;
  auto parseList = [&](SmallVector<int64_t> &extents) -> ParseResult {
    return failure(parser.parseEqual() ||
                   parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, [&] {
                     return parser.parseInteger(extents.emplace_back());
                   }));
  };
  auto parseExtents = [&](StringRef keyword, SmallVector<int64_t> &extents) -> ParseResult {
    return failure(parser.parseKeyword(keyword) || parseList(extents));
  };
  if (parser.parseLess() || parseExtents("grid", grid) || parser.parseComma() ||
      parseExtents("block", block))
    return {};
  // The optional fields, each at most once and in this order.
  const StringRef optionalFields[] = {"cluster", "dynamic_shared_memory", "max_registers"};
  size_t next = 0;
  while (succeeded(parser.parseOptionalComma())) {
    StringRef keyword;
    SMLoc location = parser.getCurrentLocation();
    if (parser.parseKeyword(&keyword))
      return {};
    const StringRef *field = llvm::find(ArrayRef(optionalFields).drop_front(next), keyword);
    if (field == std::end(optionalFields)) {
      parser.emitError(location, "expected cluster, dynamic_shared_memory or max_registers "
                                 "(each once, in that order), not '")
          << keyword << "'";
      return {};
    }
    next = field - optionalFields + 1;
    if (keyword == "cluster" ? failed(parseList(cluster))
                             : parser.parseEqual() ||
                                   parser.parseInteger(keyword == "max_registers"
                                                           ? maxRegisters
                                                           : dynamicSharedMemory))
      return {};
  }
  if (parser.parseGreater())
    return {};
  return parser.getChecked<LaunchAttr>(parser.getContext(), grid, block, cluster,
                                       dynamicSharedMemory, maxRegisters);
}

void LaunchAttr::print(AsmPrinter &printer) const {
  printer << "<grid = [";
  llvm::interleaveComma(getGrid(), printer);
  printer << "], block = [";
  llvm::interleaveComma(getBlock(), printer);
  printer << "]";
  if (!getCluster().empty()) {
    printer << ", cluster = [";
    llvm::interleaveComma(getCluster(), printer);
    printer << "]";
  }
  if (getDynamicSharedMemory())
    printer << ", dynamic_shared_memory = " << getDynamicSharedMemory();
  if (getMaxRegisters())
    printer << ", max_registers = " << getMaxRegisters();
  printer << ">";
}

#define GET_ATTRDEF_CLASSES
#include "dialect/XlaGpuAttrs.cpp.inc"

//===----------------------------------------------------------------------===//
// ApplyIndexingOp
//===----------------------------------------------------------------------===//

ParseResult ApplyIndexingOp::parse(OpAsmParser &parser, OperationState &result) {
  IndexingMapAttr map;
  SmallVector<OpAsmParser::UnresolvedOperand> dims, symbols;
  if (parser.parseAttribute(map, "indexing_map", result.attributes) ||
      parser.parseOperandList(dims, OpAsmParser::Delimiter::Paren) ||
      parser.parseOperandList(symbols, OpAsmParser::Delimiter::OptionalSquare) ||
      parser.parseOptionalAttrDict(result.attributes))
    return failure();
  Type index = parser.getBuilder().getIndexType();
  if (parser.resolveOperands(dims, index, result.operands) ||
      parser.resolveOperands(symbols, index, result.operands))
    return failure();
  result.addTypes(SmallVector<Type>(
      map.getIndexingMap().getAffineMap().getNumResults(), index));
  return success();
}

void ApplyIndexingOp::print(OpAsmPrinter &printer) {
  const IndexingMap &map = getIndexingMap().getIndexingMap();
  printer << ' ';
  printer.printAttributeWithoutType(getIndexingMapAttr());
  auto operands = getOperands();
  printer << '(';
  printer << operands.take_front(map.getDimCount());
  printer << ')';
  if (map.getSymbolCount()) {
    printer << '[';
    printer << operands.drop_front(map.getDimCount());
    printer << ']';
  }
  printer.printOptionalAttrDict((*this)->getAttrs(), {"indexing_map"});
}

LogicalResult ApplyIndexingOp::verify() {
  const IndexingMap &map = getIndexingMap().getIndexingMap();
  if (static_cast<int64_t>(getOperands().size()) !=
      map.getDimCount() + map.getSymbolCount())
    return emitOpError("expects ")
           << map.getDimCount() + map.getSymbolCount()
           << " operands (dimensions and symbols of the map), but has "
           << getOperands().size();
  if (getNumResults() != map.getAffineMap().getNumResults())
    return emitOpError("expects ") << map.getAffineMap().getNumResults()
                                   << " results";
  return success();
}

//===----------------------------------------------------------------------===//
// PureCallOp
//===----------------------------------------------------------------------===//

LogicalResult PureCallOp::verifySymbolUses(SymbolTableCollection &symbols) {
  auto callee =
      symbols.lookupNearestSymbolFrom<func::FuncOp>(*this, getCalleeAttr());
  if (!callee)
    return emitOpError("calls '") << getCallee() << "', which does not exist";
  FunctionType type = callee.getFunctionType();
  if (!llvm::equal(type.getInputs(), getOperandTypes()) ||
      !llvm::equal(type.getResults(), getResultTypes()))
    return emitOpError("types do not match the callee's ") << type;
  return success();
}

//===----------------------------------------------------------------------===//
// LoopOp
//===----------------------------------------------------------------------===//

ValueRange LoopOp::getRangeVars() {
  const IndexingMap &map = getIndexingMap().getIndexingMap();
  return getRegion().front().getArguments().take_front(map.getSymbolCount());
}

ValueRange LoopOp::getMapResults() {
  const IndexingMap &map = getIndexingMap().getIndexingMap();
  return getRegion().front().getArguments().slice(
      map.getSymbolCount(), map.getAffineMap().getNumResults());
}

ValueRange LoopOp::getIterArgs() {
  return getRegion().front().getArguments().take_back(getInits().size());
}

ParseResult LoopOp::parse(OpAsmParser &parser, OperationState &result) {
  Builder &builder = parser.getBuilder();
  Type index = builder.getIndexType();
  SmallVector<OpAsmParser::UnresolvedOperand> dims;
  SmallVector<OpAsmParser::Argument> rangeVars, mapResults, iterArgs;
  SmallVector<OpAsmParser::UnresolvedOperand> inits;
  SmallVector<Type> resultTypes;
  IndexingMapAttr map;
  if (parser.parseOperandList(dims, OpAsmParser::Delimiter::Paren) ||
      parser.parseArgumentList(rangeVars, OpAsmParser::Delimiter::OptionalSquare) ||
      parser.parseArrow() ||
      parser.parseArgumentList(mapResults, OpAsmParser::Delimiter::Paren) ||
      parser.parseKeyword("in") ||
      parser.parseAttribute(map, "indexing_map", result.attributes))
    return failure();
  if (succeeded(parser.parseOptionalKeyword("iter_args"))) {
    if (parser.parseAssignmentList(iterArgs, inits) || parser.parseArrow() ||
        parser.parseLParen() || parser.parseTypeList(resultTypes) ||
        parser.parseRParen())
      return failure();
  }
  if (resultTypes.size() != inits.size())
    return parser.emitError(parser.getCurrentLocation(),
                            "iter_args and result types differ in number");
  if (parser.resolveOperands(dims, index, result.operands) ||
      parser.resolveOperands(inits, resultTypes, parser.getCurrentLocation(),
                             result.operands))
    return failure();
  result.addTypes(resultTypes);
  for (auto &arg : rangeVars)
    arg.type = index;
  for (auto &arg : mapResults)
    arg.type = index;
  for (auto [arg, type] : llvm::zip(iterArgs, resultTypes))
    arg.type = type;
  SmallVector<OpAsmParser::Argument> arguments;
  arguments.append(rangeVars);
  arguments.append(mapResults);
  arguments.append(iterArgs);
  Region *body = result.addRegion();
  if (parser.parseRegion(*body, arguments))
    return failure();
  LoopOp::ensureTerminator(*body, builder, result.location);
  result.addAttribute(
      LoopOp::getOperandSegmentSizeAttr(),
      builder.getDenseI32ArrayAttr({static_cast<int32_t>(dims.size()),
                                    static_cast<int32_t>(inits.size())}));
  return parser.parseOptionalAttrDict(result.attributes);
}

void LoopOp::print(OpAsmPrinter &printer) {
  printer << " (" << getDims() << ")";
  if (!getRangeVars().empty()) {
    printer << '[';
    llvm::interleaveComma(getRangeVars(), printer,
                          [&](Value v) { printer.printOperand(v); });
    printer << ']';
  }
  printer << " -> (";
  llvm::interleaveComma(getMapResults(), printer,
                        [&](Value v) { printer.printOperand(v); });
  printer << ") in ";
  printer.printAttributeWithoutType(getIndexingMapAttr());
  if (!getInits().empty()) {
    printer << " iter_args(";
    llvm::interleaveComma(llvm::zip(getIterArgs(), getInits()), printer,
                          [&](auto pair) {
                            printer << std::get<0>(pair) << " = "
                                    << std::get<1>(pair);
                          });
    printer << ") -> (" << getResultTypes() << ")";
  }
  printer << ' ';
  printer.printRegion(getRegion(), /*printEntryBlockArgs=*/false,
                      /*printBlockTerminators=*/!getInits().empty());
  printer.printOptionalAttrDict((*this)->getAttrs(),
                                {"indexing_map", getOperandSegmentSizeAttr()});
}

LogicalResult LoopOp::verify() {
  const IndexingMap &map = getIndexingMap().getIndexingMap();
  if (static_cast<int64_t>(getDims().size()) != map.getDimCount())
    return emitOpError("expects ") << map.getDimCount() << " dimension values";
  if (map.getRuntimeVarCount() != 0)
    return emitOpError("cannot iterate over runtime variables");
  Block &body = getRegion().front();
  size_t expected = map.getSymbolCount() + map.getAffineMap().getNumResults() +
                    getInits().size();
  if (body.getNumArguments() != expected)
    return emitOpError("expects ") << expected << " block arguments";
  for (auto [init, result] : llvm::zip(getInits(), getResults()))
    if (init.getType() != result.getType())
      return emitOpError("iter_args and results must have the same types");
  return success();
}

//===----------------------------------------------------------------------===//
// SyncThreadsOp
//===----------------------------------------------------------------------===//

/// `%a, %b {attributes} : type, type` (each part optional): the syntax of
/// the ops that pass their tiles through.
static ParseResult parsePassThrough(OpAsmParser &parser, OperationState &result) {
  SmallVector<OpAsmParser::UnresolvedOperand> tiles;
  SmallVector<Type> types;
  if (parser.parseOperandList(tiles) || parser.parseOptionalAttrDict(result.attributes))
    return failure();
  if (!tiles.empty() && (parser.parseColon() || parser.parseTypeList(types)))
    return failure();
  if (parser.resolveOperands(tiles, types, parser.getCurrentLocation(), result.operands))
    return failure();
  result.addTypes(types);
  return success();
}

static void printPassThrough(OpAsmPrinter &printer, Operation *op) {
  if (op->getNumOperands() > 0)
    printer << ' ' << op->getOperands();
  printer.printOptionalAttrDict(op->getAttrs());
  if (op->getNumOperands() > 0)
    printer << " : " << op->getOperandTypes();
}

ParseResult SyncThreadsOp::parse(OpAsmParser &parser, OperationState &result) {
  return parsePassThrough(parser, result);
}
void SyncThreadsOp::print(OpAsmPrinter &printer) { printPassThrough(printer, *this); }
ParseResult AsyncCommitOp::parse(OpAsmParser &parser, OperationState &result) {
  return parsePassThrough(parser, result);
}
void AsyncCommitOp::print(OpAsmPrinter &printer) { printPassThrough(printer, *this); }
ParseResult AsyncWaitOp::parse(OpAsmParser &parser, OperationState &result) {
  return parsePassThrough(parser, result);
}
void AsyncWaitOp::print(OpAsmPrinter &printer) { printPassThrough(printer, *this); }

LogicalResult SyncThreadsOp::verify() {
  if (!llvm::equal(getTiles().getTypes(), getResultTypes()))
    return emitOpError("results must have the types of the tiles");
  return success();
}

//===----------------------------------------------------------------------===//
// ShuffleReduceOp
//===----------------------------------------------------------------------===//

ParseResult ShuffleReduceOp::parse(OpAsmParser &parser, OperationState &result) {
  SmallVector<OpAsmParser::UnresolvedOperand> operands;
  SmallVector<Type> types;
  int64_t maxDistance = 0;
  FlatSymbolRefAttr combiner;
  if (parser.parseOperandList(operands, OpAsmParser::Delimiter::Paren) ||
      parser.parseKeyword("to") || parser.parseInteger(maxDistance) ||
      parser.parseKeyword("combiner") || parser.parseEqual() ||
      parser.parseAttribute(combiner, "combiner", result.attributes) ||
      parser.parseOptionalAttrDict(result.attributes) || parser.parseColon() ||
      parser.parseTypeList(types) ||
      parser.resolveOperands(operands, types, parser.getCurrentLocation(),
                             result.operands))
    return failure();
  result.addAttribute("max_distance", parser.getBuilder().getI64IntegerAttr(maxDistance));
  result.addTypes(types);
  return success();
}

void ShuffleReduceOp::print(OpAsmPrinter &printer) {
  printer << '(' << getOperands() << ") to " << getMaxDistance() << " combiner=";
  printer.printAttributeWithoutType(getCombinerAttr());
  printer.printOptionalAttrDict((*this)->getAttrs(), {"max_distance", "combiner"});
  printer << " : " << getOperands().getTypes();
}

LogicalResult ShuffleReduceOp::verify() {
  int64_t distance = getMaxDistance();
  if (distance < 1 || distance > 16 || (distance & (distance - 1)) != 0)
    return emitOpError("max distance must be a power of two from 1 to 16, not ")
           << distance;
  if (getOperands().empty())
    return emitOpError("needs at least one value");
  if (!llvm::equal(getOperands().getTypes(), getResultTypes()))
    return emitOpError("results must have the types of the operands");
  return success();
}

LogicalResult ShuffleReduceOp::verifySymbolUses(SymbolTableCollection &symbols) {
  auto combiner = symbols.lookupNearestSymbolFrom<func::FuncOp>(*this, getCombinerAttr());
  if (!combiner)
    return emitOpError("combiner '") << getCombiner() << "' does not exist";
  SmallVector<Type> inputs(getOperands().getTypes());
  inputs.append(getOperands().getTypes().begin(), getOperands().getTypes().end());
  FunctionType type = combiner.getFunctionType();
  if (!llvm::equal(type.getInputs(), inputs) ||
      !llvm::equal(type.getResults(), getOperands().getTypes()))
    return emitOpError("combiner ") << type << " does not combine the values' types";
  return success();
}

//===----------------------------------------------------------------------===//
// PredicatedInsertOp, PredicatedExtractOp
//===----------------------------------------------------------------------===//

LogicalResult PredicatedInsertOp::verify() {
  if (static_cast<int64_t>(getIndices().size()) != getDest().getType().getRank())
    return emitOpError("expects ") << getDest().getType().getRank() << " indices";
  return success();
}

LogicalResult PredicatedExtractOp::verify() {
  if (static_cast<int64_t>(getIndices().size()) != getSrc().getType().getRank())
    return emitOpError("expects ") << getSrc().getType().getRank() << " indices";
  return success();
}

LogicalResult ElementPointerOp::verify() {
  auto type = cast<MemRefType>(getMemref().getType());
  if (static_cast<int64_t>(getIndices().size()) != type.getRank())
    return emitOpError("expects ") << type.getRank() << " indices";
  return success();
}

LogicalResult LdmatrixOp::verify() {
  auto tile = cast<ShapedType>(getTile().getType());
  if (tile.getRank() != 2 || getIndices().size() != 2)
    return emitOpError("expects a 2-D tile and 2 indices");
  int64_t count = getCount();
  if (count != 1 && count != 2 && count != 4)
    return emitOpError("expects 1, 2 or 4 matrices, not ") << count;
  Type element = tile.getElementType();
  unsigned bits = element.isIntOrFloat() ? element.getIntOrFloatBitWidth() : 0;
  if (bits != 8 && bits != 16 && bits != 32)
    return emitOpError("expects a tile of 8-, 16- or 32-bit elements, not ") << element;
  if (getTranspose() && bits != 16)
    return emitOpError("transposes 16-bit elements only, not ") << element;
  if (tile.getDimSize(1) * bits % 128 != 0)
    return emitOpError("expects rows of a multiple of 16 bytes (aligned row addresses)");
  auto expected = VectorType::get({count * 32 / bits}, element);
  if (getResult().getType() != expected)
    return emitOpError("expects the result type ") << expected;
  return success();
}

LogicalResult WgmmaOp::verify() {
  auto a = cast<ShapedType>(getA().getType());
  auto b = cast<ShapedType>(getB().getType());
  int64_t swizzle = getSwizzle();
  if (swizzle != 0 && swizzle != 32 && swizzle != 64 && swizzle != 128)
    return emitOpError("expects a swizzle of 0, 32, 64 or 128 bytes, not ") << swizzle;
  Type element = a.getElementType();
  auto isFloat8 = [](Type type) { return isa<Float8E4M3FNType, Float8E5M2Type>(type); };
  if (!element.isBF16() && !element.isF16() && !element.isF32() && !isFloat8(element))
    return emitOpError("expects bf16, f16, f32 (TF32), f8E4M3FN or f8E5M2 tiles, not ")
           << element;
  // 8-bit floats may mix (e4m3 A, e5m2 B); other types are alike.
  if (b.getElementType() != element && !(isFloat8(element) && isFloat8(b.getElementType())))
    return emitOpError("expects tiles of one element type (or two 8-bit floats)");
  int64_t bytes = element.getIntOrFloatBitWidth() / 8, perCore = 16 / bytes;
  for (ShapedType tile : {a, b}) {
    if (swizzle == 0 && (tile.getRank() != 4 || tile.getDimSize(2) != 8 ||
                         tile.getDimSize(3) != perCore))
      return emitOpError("expects tiles of 8 x ")
             << perCore << " core matrices ([R/8][K/" << perCore << "][8][" << perCore
             << "]), not " << tile;
    if (swizzle != 0 && (tile.getRank() != 3 || tile.getDimSize(2) * bytes != swizzle ||
                         tile.getDimSize(1) % 8 != 0))
      return emitOpError("expects tiles of ")
             << swizzle << "-byte rows ([K/" << swizzle / bytes << "][R][" << swizzle / bytes
             << "], R a multiple of 8), not " << tile;
  }
  bool transposed = getBTransposed();
  if (transposed && (swizzle == 0 || bytes != 2))
    return emitOpError("expects an N-major B of 16-bit elements in swizzled rows");
  if (getATransposed() && (swizzle == 0 || bytes != 2))
    return emitOpError("expects an M-major A of 16-bit elements in swizzled rows");
  int64_t depthB = transposed    ? b.getDimSize(1)
                   : swizzle == 0 ? b.getDimSize(1) * b.getDimSize(3)
                                  : b.getDimSize(0) * b.getDimSize(2);
  if (getDepth() != depthB || getDepth() % getStepDepth() != 0)
    return emitOpError("expects tiles of the same K extent, a multiple of 32 bytes");
  if (rowsOf(a, swizzle, getATransposed()) < 64)
    return emitOpError("expects A of at least 64 rows");
  int64_t width = getWidth();
  if (width < 8 || width > 256 || width % 8 != 0)
    return emitOpError("expects N a multiple of 8 up to 256 (N / 2 accumulators), not ")
           << width;
  if (rowsOf(b, swizzle, transposed) < width)
    return emitOpError("expects B of at least N = ") << width << " rows";
  if (getC().getType() != getD().getType())
    return emitOpError("expects C and D of one type");
  return success();
}

LogicalResult WgmmaWaitOp::verify() {
  if (getPending() < 0 || getPending() > 7)
    return emitOpError("expects 0 to 7 pending groups (wgmma.wait_group), not ") << getPending();
  return success();
}

LogicalResult AsyncCopyOp::verify() {
  auto source = cast<ShapedType>(getSource().getType());
  auto tile = cast<ShapedType>(getTile().getType());
  if (static_cast<int64_t>(getSourceIndices().size()) != source.getRank() ||
      static_cast<int64_t>(getTileIndices().size()) != tile.getRank())
    return emitOpError("expects one index per dimension of the source and of the tile");
  if (source.getElementType() != tile.getElementType())
    return emitOpError("expects a source and a tile of one element type");
  int64_t bytes = getBytes();
  if (bytes != 4 && bytes != 8 && bytes != 16)
    return emitOpError("copies 4, 8 or 16 bytes, not ") << bytes;
  Type element = tile.getElementType();
  unsigned bits = element.isIntOrFloat() ? element.getIntOrFloatBitWidth() : 0;
  if (bits == 0 || bits % 8 != 0 || (bytes * 8) % bits != 0 ||
      tile.getDimSize(tile.getRank() - 1) % (bytes * 8 / bits) != 0 ||
      source.getDimSize(source.getRank() - 1) % (bytes * 8 / bits) != 0)
    return emitOpError("expects rows of whole ") << bytes << "-byte copies of " << element;
  bool tensors = isa<TensorType>(tile);
  if (tensors != isa<TensorType>(source))
    return emitOpError("expects a source and a tile both tensors or both buffers");
  if (tensors != static_cast<bool>(getResult()) ||
      (getResult() && getResult().getType() != tile))
    return emitOpError("returns the tile's new value on tensors, nothing on buffers");
  return success();
}

/// Async commits and waits pass their tiles through.
static LogicalResult verifyPassThrough(Operation *op) {
  if (op->getOperandTypes() != op->getResultTypes())
    return op->emitOpError("returns its tiles, of their types");
  return success();
}

LogicalResult AsyncCommitOp::verify() { return verifyPassThrough(*this); }

LogicalResult AsyncWaitOp::verify() {
  if (getPendingAttr().getInt() < 0)
    return emitOpError("waits for a number of pending groups, not ")
           << getPendingAttr().getInt();
  return verifyPassThrough(*this);
}

LogicalResult AtomicRMWOp::verify() {
  auto type = getInput().getType();
  if (static_cast<int64_t>(getIndices().size()) != type.getRank())
    return emitOpError("expects ") << type.getRank() << " indices";
  Block &body = getComputation().front();
  if (body.getNumArguments() != 1 || body.getArgument(0).getType() != type.getElementType())
    return emitOpError("expects one block argument of the element type ")
           << type.getElementType();
  auto yield = dyn_cast<YieldOp>(body.getTerminator());
  if (!yield || yield.getValues().size() != 1 ||
      yield.getValues()[0].getType() != type.getElementType())
    return emitOpError("must yield one value of the element type ") << type.getElementType();
  return success();
}

#define GET_OP_CLASSES
#include "dialect/XlaGpuOps.cpp.inc"
