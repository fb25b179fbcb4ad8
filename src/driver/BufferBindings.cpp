//===- BufferBindings.cpp - The manifest's names of buffers ---------------===//
#include "BufferBindings.h"


namespace hlo::driver {

void arrayLeaves(const Shape &shape, std::vector<const Shape *> &leaves) {
  if (shape.isTuple()) {
    for (const Shape &element : shape.tupleShapes())
      arrayLeaves(element, leaves);
    return;
  }
  leaves.push_back(&shape);
}

abi::KernelParameter bufferParameter(bool isOutput, const Shape &shape) {
  abi::KernelParameter result;
  result.isOutput = isOutput;
  result.shape = abi::ArrayShape{std::string(primitiveTypeName(shape.elementType())),
                                 shape.dimensions(), shape.layoutOrDefault().minorToMajor};
  result.bytes = shape.bufferBytes();
  return result;
}

void bindSlot(abi::KernelParameter &parameter, const BufferSlot &slot) {
  switch (slot.kind) {
  case BufferSlot::Kind::EntryParameter:
    parameter.binding = abi::BufferBinding::Parameter;
    parameter.number = slot.number;
    return;
  case BufferSlot::Kind::EntryOutput:
    parameter.binding = abi::BufferBinding::Output;
    parameter.number = slot.number;
    return;
  case BufferSlot::Kind::Result:
    parameter.binding = abi::BufferBinding::Buffer;
    parameter.bufferName =
        slot.producer ? abi::BufferId::leafOf(slot.producer->name(), slot.leaf, slot.leafCount).str()
                      : std::string("?");
    return;
  }
}

} // namespace hlo::driver
