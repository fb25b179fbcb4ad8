//===- XlaGpuAttrs.td - Attributes of the emitters' dialect -*- tablegen -*-===//
#ifndef HLO_DIALECT_XLAGPUATTRS_TD
#define HLO_DIALECT_XLAGPUATTRS_TD

include "mlir/IR/AttrTypeBase.td"
include "XlaGpuDialect.td"

class XlaGpu_Attr<string name, string attrMnemonic>
    : AttrDef<XlaGpuDialect, name> {
  let mnemonic = attrMnemonic;
}

def XlaGpu_IndexingMapAttr : XlaGpu_Attr<"IndexingMap", "indexing_map"> {
  let summary = "An indexing map with its domain (XLA's indexing analysis)";
  let description = [{
    Printed as the map's text form in quotes:

      #xla_gpu.indexing_map<"(th_x, bl_x)[s0] -> (bl_x * 512 + th_x * 4 + s0),
        domain: th_x in [0, 127], bl_x in [0, 24575], s0 in [0, 3]">
  }];
  let parameters = (ins AttrParameter<"::hlo::IndexingMap", "">:$indexing_map);
  let hasCustomAssemblyFormat = 1;
}

#endif // HLO_DIALECT_XLAGPUATTRS_TD
