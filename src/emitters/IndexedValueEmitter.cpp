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

llvm::Expected<func::FuncOp>
IndexedValueEmitter::scalarFunction(const HloComputation &computation) {
  auto it = scalarFunctions.find(&computation);
  if (it != scalarFunctions.end())
    return it->second;
  MLIRContext *context = module.getContext();
  SmallVector<Type> inputs;
  for (const HloInstruction *parameter : computation.parameters()) {
    if (!parameter->shape().isArray() || parameter->shape().rank() != 0)
      return emissionError(parameter, "unsupported: non-scalar parameter of a reducer");
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
  llvm::Error error = body.takeError();
  if (values.size() != results.size()) {
    if (error)
      return error;
    return emissionError(root, "unsupported: reducer");
  }
  // The body went on past what it recorded: not a failure (as before).
  llvm::consumeError(std::move(error));
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
  auto call = xla_gpu::PureCallOp::create(b, callee, operands);
  return SmallVector<Value>(call.getResults().begin(), call.getResults().end());
}

llvm::Expected<SmallVector<Value>>
IndexedValueEmitter::emitValue(ImplicitLocOpBuilder &b, const HloInstruction &instruction,
                               ValueRange parameters, ValueRange indices) {
  FunctionBodyEmitter body(*this, b, /*subgraph=*/nullptr, parameters,
                           /*scalarParameters=*/false);
  SmallVector<Value> values = body.emit(&instruction, indices);
  llvm::Error error = body.takeError();
  if (!values.empty()) {
    // The body went on past what it recorded: not a failure (as before).
    llvm::consumeError(std::move(error));
    return values;
  }
  if (error)
    return error;
  return emissionError(&instruction,
                       "unsupported: " + std::string(opcodeName(instruction.opcode())));
}

llvm::Error IndexedValueEmitter::emitFunctionBody(const Subgraph &subgraph,
                                                  func::FuncOp function) {
  OpBuilder builder(module.getContext());
  ImplicitLocOpBuilder b(function.getLoc(), builder);
  Block *entry = function.addEntryBlock();
  b.setInsertionPointToStart(entry);
  const HloComputation &computation = partitioned.computation();
  for (const HloInstruction *parameter : computation.parameters())
    if (!parameter->shape().isArray())
      return emissionError(parameter, "unsupported: tuple-shaped fusion parameter");
  ValueRange arguments = entry->getArguments();
  size_t parameterCount = computation.parameters().size();
  size_t indexCount = firstArrayShape(subgraph.root->shape()).rank();
  FunctionBodyEmitter body(*this, b, &subgraph, arguments.take_front(parameterCount),
                           /*scalarParameters=*/false,
                           arguments.drop_front(parameterCount + indexCount));
  SmallVector<Value> values =
      body.emit(subgraph.root, arguments.slice(parameterCount, indexCount));
  llvm::Error error = body.takeError();
  if (values.empty()) {
    if (error)
      return error;
    return emissionError(subgraph.root,
                         "unsupported: " + std::string(opcodeName(subgraph.root->opcode())));
  }
  // The body went on past what it recorded: not a failure (as before).
  llvm::consumeError(std::move(error));
  func::ReturnOp::create(b, values);
  return llvm::Error::success();
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

llvm::Error IndexedValueEmitter::emitPendingFunctions() {
  const HloComputation &computation = partitioned.computation();
  for (const HloInstruction *parameter : computation.parameters())
    if (!parameter->shape().isArray())
      return emissionError(parameter, "unsupported: tuple-shaped fusion parameter");
  while (!pending.empty()) {
    const Subgraph *subgraph = pending.back();
    pending.pop_back();
    if (llvm::Error error = emitFunctionBody(*subgraph, functions.at(subgraph)))
      return error;
  }
  return llvm::Error::success();
}

} // namespace hlo
