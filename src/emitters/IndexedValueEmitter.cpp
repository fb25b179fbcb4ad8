//===- IndexedValueEmitter.cpp - Subgraphs as functions of indices --------===//
//
// The function management of the IndexedValueEmitter: declaring a subgraph's
// or epilogue's function on first use, calling it (xla_gpu.pure_call),
// emitting the pending bodies, the scalar functions of reducers and mapped
// computations, values in an entry function, and the final function order.
// The bodies themselves are FunctionBodyEmitter's (FunctionBodyEmitter.cpp).
//
//===----------------------------------------------------------------------===//
#include "emitters/IndexedValueEmitter.h"

#include "dialect/XlaGpuDialect.h"
#include "emitters/FunctionBodyEmitter.h"
#include "emitters/TypeConversion.h"

#include "mlir/IR/ImplicitLocOpBuilder.h"

using namespace mlir;

namespace hlo {

llvm::SmallVector<Type> elementTypesOf(const Shape &shape, MLIRContext *context) {
  llvm::SmallVector<Type> types;
  if (shape.isTuple()) {
    for (const Shape &element : shape.tupleShapes())
      types.push_back(elementType(element.elementType(), context));
  } else {
    types.push_back(elementType(shape.elementType(), context));
  }
  return types;
}

namespace {

const Shape &firstArrayShape(const Shape &shape) {
  return shape.isTuple() && shape.tupleSize() ? shape.tupleShapes()[0] : shape;
}

} // namespace

func::FuncOp
IndexedValueEmitter::scalarFunction(const HloComputation &computation,
                                    EmissionError &error) {
  auto it = scalarFunctions.find(&computation);
  if (it != scalarFunctions.end())
    return it->second;
  MLIRContext *context = module.getContext();
  SmallVector<Type> inputs;
  for (const HloInstruction *parameter : computation.parameters()) {
    if (!parameter->shape().isArray() || parameter->shape().rank() != 0) {
      error = {parameter, "unsupported: non-scalar parameter of a reducer"};
      return {};
    }
    inputs.push_back(elementType(parameter->shape().elementType(), context));
  }
  SmallVector<Type> results = elementTypesOf(computation.root()->shape(), context);
  OpBuilder builder(context);
  builder.setInsertionPointToEnd(module.getBody());
  ImplicitLocOpBuilder b(locations.of(computation.root()), builder);
  auto function = func::FuncOp::create(b, namer.claim(computation.name()),
                                       FunctionType::get(context, inputs, results));
  function.setPrivate();
  scalarFunctions[&computation] = function;
  scalarFunctionOrder.push_back(function);
  Block *entry = function.addEntryBlock();
  b.setInsertionPointToStart(entry);
  FunctionBodyEmitter body(*this, b, /*subgraph=*/nullptr, entry->getArguments(),
                           /*scalarParameters=*/true);
  SmallVector<Value> values;
  const HloInstruction *root = computation.root();
  if (root->opcode() == HloOpcode::Tuple) {
    for (const HloInstruction *operand : root->operands()) {
      SmallVector<Value> value = body.emit(operand, {});
      if (value.empty())
        break;
      values.push_back(value[0]);
    }
  } else {
    values = body.emit(root, {});
  }
  if (values.size() != results.size()) {
    error = body.error.instruction ? body.error
                                   : EmissionError{root, "unsupported: reducer"};
    return {};
  }
  func::ReturnOp::create(b, values);
  return function;
}

func::FuncOp IndexedValueEmitter::functionFor(const Subgraph &subgraph) {
  auto it = functions.find(&subgraph);
  if (it != functions.end())
    return it->second;
  MLIRContext *context = module.getContext();
  const HloComputation &computation = partitioned.computation();
  SmallVector<Type> inputs;
  for (const HloInstruction *parameter : computation.parameters())
    inputs.push_back(bufferTensorType(parameter->shape(), context));
  inputs.append(firstArrayShape(subgraph.root->shape()).rank(), IndexType::get(context));
  if (subgraph.injected)
    inputs.append(elementTypesOf(subgraph.injected->shape(), context));
  SmallVector<Type> results = elementTypesOf(subgraph.root->shape(), context);
  OpBuilder builder(context);
  builder.setInsertionPointToEnd(module.getBody());
  auto function = func::FuncOp::create(builder, locations.of(subgraph.root),
                                       namer.claim(subgraph.name),
                                       FunctionType::get(context, inputs, results));
  function.setPrivate();
  functions[&subgraph] = function;
  pending.push_back(&subgraph);
  return function;
}

SmallVector<Value> IndexedValueEmitter::callSubgraph(ImplicitLocOpBuilder &b,
                                                     const Subgraph &subgraph,
                                                     ValueRange parameters,
                                                     ValueRange indices) {
  return callEpilogue(b, subgraph, parameters, indices, {});
}

SmallVector<Value> IndexedValueEmitter::callEpilogue(ImplicitLocOpBuilder &b,
                                                     const Subgraph &epilogue,
                                                     ValueRange parameters,
                                                     ValueRange rootIndices,
                                                     ValueRange heroValues) {
  func::FuncOp callee = functionFor(epilogue);
  SmallVector<Value> operands(parameters.begin(), parameters.end());
  operands.append(rootIndices.begin(), rootIndices.end());
  operands.append(heroValues.begin(), heroValues.end());
  auto call = xla_gpu::PureCallOp::create(
      b, callee.getFunctionType().getResults(),
      FlatSymbolRefAttr::get(callee.getSymNameAttr()), operands, ArrayAttr(),
      ArrayAttr());
  return SmallVector<Value>(call.getResults().begin(), call.getResults().end());
}

SmallVector<Value> IndexedValueEmitter::emitValue(
    ImplicitLocOpBuilder &b, const HloInstruction &instruction,
    ValueRange parameters, ValueRange indices, EmissionError &error) {
  FunctionBodyEmitter body(*this, b, /*subgraph=*/nullptr, parameters,
                           /*scalarParameters=*/false);
  SmallVector<Value> values = body.emit(&instruction, indices);
  if (values.empty())
    error = body.error.instruction
                ? body.error
                : EmissionError{&instruction,
                                "unsupported: " + std::string(opcodeName(instruction.opcode()))};
  return values;
}

bool IndexedValueEmitter::emitFunctionBody(const Subgraph &subgraph,
                                           func::FuncOp function,
                                           EmissionError &error) {
  OpBuilder builder(module.getContext());
  ImplicitLocOpBuilder b(function.getLoc(), builder);
  Block *entry = function.addEntryBlock();
  b.setInsertionPointToStart(entry);
  const HloComputation &computation = partitioned.computation();
  for (const HloInstruction *parameter : computation.parameters())
    if (!parameter->shape().isArray()) {
      error = {parameter, "unsupported: tuple-shaped fusion parameter"};
      return false;
    }
  ValueRange arguments = entry->getArguments();
  size_t parameterCount = computation.parameters().size();
  size_t indexCount = firstArrayShape(subgraph.root->shape()).rank();
  FunctionBodyEmitter body(*this, b, &subgraph, arguments.take_front(parameterCount),
                           /*scalarParameters=*/false,
                           arguments.drop_front(parameterCount + indexCount));
  SmallVector<Value> values =
      body.emit(subgraph.root, arguments.slice(parameterCount, indexCount));
  if (values.empty()) {
    error = body.error.instruction
                ? body.error
                : EmissionError{subgraph.root,
                                "unsupported: " + std::string(opcodeName(subgraph.root->opcode()))};
    return false;
  }
  func::ReturnOp::create(b, values);
  return true;
}

void IndexedValueEmitter::moveFunctionsToEnd() {
  Block *body = module.getBody();
  auto moveToEnd = [&](func::FuncOp function) { function->moveBefore(body, body->end()); };
  for (const Subgraph &subgraph : partitioned.subgraphs())
    if (auto it = functions.find(&subgraph); it != functions.end())
      moveToEnd(it->second);
  for (const Subgraph &epilogue : partitioned.epilogues())
    if (auto it = functions.find(&epilogue); it != functions.end())
      moveToEnd(it->second);
  for (func::FuncOp function : scalarFunctionOrder)
    moveToEnd(function);
}

bool IndexedValueEmitter::emitPendingFunctions(EmissionError &error) {
  const HloComputation &computation = partitioned.computation();
  for (const HloInstruction *parameter : computation.parameters())
    if (!parameter->shape().isArray()) {
      error = {parameter, "unsupported: tuple-shaped fusion parameter"};
      return false;
    }
  while (!pending.empty()) {
    const Subgraph *subgraph = pending.back();
    pending.pop_back();
    if (!emitFunctionBody(*subgraph, functions.at(subgraph), error))
      return false;
  }
  return true;
}

} // namespace hlo
