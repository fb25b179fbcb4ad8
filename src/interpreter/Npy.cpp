//===- Npy.cpp - NumPy .npy files -----------------------------------------===//
#include "Npy.h"

#include "ElementBytes.h"

#include "hlo_parser/SourceFile.h"

#include <fstream>

namespace hlo::interp {
namespace {

constexpr char kMagic[] = "\x93NUMPY";

/// The value text of `key` in the header dict ("'descr': '<f4'" -> "'<f4'").
std::string headerField(const std::string &header, const std::string &key) {
  size_t at = header.find("'" + key + "'");
  if (at == std::string::npos)
    return "";
  at = header.find(':', at);
  if (at == std::string::npos)
    return "";
  ++at;
  while (at < header.size() && header[at] == ' ')
    ++at;
  size_t end = at;
  if (header[at] == '(')
    end = header.find(')', at) + 1;
  else if (header[at] == '\'')
    end = header.find('\'', at + 1) + 1;
  else
    while (end < header.size() && header[end] != ',' && header[end] != '}')
      ++end;
  return header.substr(at, end - at);
}

/// Descriptors accepted for `type` when reading.
bool acceptsDescriptor(PrimitiveType type, std::string descr) {
  if (descr.size() >= 2 && descr.front() == '\'' && descr.back() == '\'')
    descr = descr.substr(1, descr.size() - 2);
  if (descr == npyDescriptor(type))
    return true;
  // Byte order marks are interchangeable for one-byte types; '=' is native
  // (little-endian here).
  std::string canonical = npyDescriptor(type);
  auto body = [](const std::string &d) { return d.empty() ? d : d.substr(1); };
  char order = descr.empty() ? '?' : descr[0];
  if (order != '<' && order != '|' && order != '=')
    return false;
  if (body(descr) == body(canonical))
    return true;
  // Raw bits of the same width for the types numpy lacks.
  std::string kind = body(canonical).substr(0, 1);
  // ml_dtypes saves its int2/int4/uint2/uint4 arrays as raw bytes too.
  if (primitiveBitWidth(type) < 8 && type != PrimitiveType::Pred && body(descr) == "V1")
    return true;
  if (kind == "V")
    return body(descr) == "u" + body(canonical).substr(1) ||
           body(descr) == "V" + body(canonical).substr(1);
  return false;
}

} // namespace

std::string npyDescriptor(PrimitiveType type) {
  switch (type) {
  case PrimitiveType::Pred: return "|b1";
  case PrimitiveType::S2: case PrimitiveType::S4: case PrimitiveType::S8: return "|i1";
  case PrimitiveType::S16: return "<i2";
  case PrimitiveType::S32: return "<i4";
  case PrimitiveType::S64: return "<i8";
  case PrimitiveType::U2: case PrimitiveType::U4: case PrimitiveType::U8: return "|u1";
  case PrimitiveType::U16: return "<u2";
  case PrimitiveType::U32: return "<u4";
  case PrimitiveType::U64: return "<u8";
  case PrimitiveType::F16: return "<f2";
  case PrimitiveType::F32: return "<f4";
  case PrimitiveType::F64: return "<f8";
  case PrimitiveType::C64: return "<c8";
  case PrimitiveType::C128: return "<c16";
  case PrimitiveType::BF16: return "<V2";
  default: return "|V1"; // f8 and f4 formats
  }
}

std::string encodeNpy(const Literal &array) {
  std::string shape = "(";
  const std::vector<int64_t> &dims = array.shape().dimensions();
  for (size_t i = 0; i < dims.size(); ++i)
    shape += std::to_string(dims[i]) + (dims.size() == 1 ? "," : i + 1 < dims.size() ? ", " : "");
  shape += ")";
  std::string header = "{'descr': '" + npyDescriptor(array.shape().elementType()) +
                       "', 'fortran_order': False, 'shape': " + shape + ", }";
  // Magic (6) + version (2) + length (2) + header + '\n', padded to 64.
  size_t total = 10 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header += '\n';
  std::string out(kMagic, 6);
  out += '\x01';
  out += '\x00';
  out += static_cast<char>(header.size() & 0xff);
  out += static_cast<char>(header.size() >> 8);
  out += header;
  std::vector<uint8_t> data = encodeElements(array);
  out.append(reinterpret_cast<const char *>(data.data()), data.size());
  return out;
}

ErrorOr<Literal> decodeNpy(const std::string &bytes, const Shape &shape) {
  if (bytes.size() < 10 || bytes.compare(0, 6, kMagic, 6) != 0)
    return makeError("not a .npy file (bad magic)");
  int major = static_cast<uint8_t>(bytes[6]);
  size_t headerLength, headerStart;
  if (major == 1) {
    headerLength = static_cast<uint8_t>(bytes[8]) | static_cast<uint8_t>(bytes[9]) << 8;
    headerStart = 10;
  } else if ((major == 2 || major == 3) && bytes.size() >= 12) {
    headerLength = 0;
    for (int i = 0; i < 4; ++i)
      headerLength |= static_cast<size_t>(static_cast<uint8_t>(bytes[8 + i])) << (8 * i);
    headerStart = 12;
  } else {
    return makeError("unsupported .npy version " + std::to_string(major));
  }
  if (headerStart + headerLength > bytes.size())
    return makeError("truncated .npy header");
  std::string header = bytes.substr(headerStart, headerLength);
  std::string descr = headerField(header, "descr");
  PrimitiveType type = shape.elementType();
  if (!acceptsDescriptor(type, descr))
    return makeError("dtype " + descr + " does not match " +
                     std::string(primitiveTypeName(type)) + " (expected '" +
                     npyDescriptor(type) + "')");
  if (headerField(header, "fortran_order") != "False")
    return makeError("Fortran-order .npy arrays are not supported");
  std::string shapeText = headerField(header, "shape");
  std::vector<int64_t> dims;
  std::string number;
  for (char c : shapeText) {
    if (c >= '0' && c <= '9') {
      number += c;
    } else if (!number.empty()) {
      dims.push_back(std::stoll(number));
      number.clear();
    }
  }
  if (dims != shape.dimensions()) {
    std::string expected;
    for (int64_t d : shape.dimensions())
      expected += (expected.empty() ? "" : ", ") + std::to_string(d);
    return makeError("shape " + shapeText + " does not match the parameter's (" + expected +
                     ")");
  }
  size_t dataStart = headerStart + headerLength;
  size_t needed = static_cast<size_t>(std::max<int64_t>(shape.elementCount(), 0) *
                                      elementByteSize(type));
  if (bytes.size() - dataStart < needed)
    return makeError("truncated .npy data");
  return decodeElements(reinterpret_cast<const uint8_t *>(bytes.data()) + dataStart, shape);
}

Status writeNpyFile(const std::string &path, const Literal &array) {
  std::ofstream out(path, std::ios::binary);
  std::string bytes = encodeNpy(array);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!out)
    return makeError("cannot write '" + path + "'");
  return Status::success();
}

ErrorOr<Literal> readNpyFile(const std::string &path, const Shape &shape) {
  // As before, the message names the path alone, not the reason.
  ErrorOr<std::shared_ptr<SourceFile>> file = SourceFile::read(path);
  if (!file)
    return makeError("cannot read '" + path + "'");
  ErrorOr<Literal> array = decodeNpy(std::string((*file)->text()), shape);
  if (!array)
    return makeError(path + ": " + array.error());
  return array;
}

} // namespace hlo::interp
