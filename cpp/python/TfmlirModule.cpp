//===- TfmlirModule.cpp - Python glue for the tfmlir dialects -------------===//
//
// Registers the dialects into upstream `mlir.ir` contexts and exposes the
// tf_type / tf_executor types and attributes as mlir.ir.Type / Attribute
// subclasses. Talks to the upstream bindings only through capsules
// (NanobindAdaptors.h), so there is no ABI coupling beyond the MLIR C API.
//
//===----------------------------------------------------------------------===//
#include "tfmlir-c/Dialects.h"

#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/IR.h"
#include "mlir/Bindings/Python/Nanobind.h"
#include "mlir/Bindings/Python/NanobindAdaptors.h"

#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

namespace nb = nanobind;
using namespace mlir::python::nanobind_adaptors;

static std::vector<MlirType> subtypeList(MlirType type) {
  std::vector<MlirType> result;
  for (intptr_t i = 0, e = tfmlirTypeWithSubtypesGetNumSubtypes(type); i < e; ++i)
    result.push_back(tfmlirTypeWithSubtypesGetSubtype(type, i));
  return result;
}

NB_MODULE(_tfmlir, m) {
  m.doc() = "tfmlir native glue: dialect registration, tf_type/tf_executor types";

  m.def(
      "register_dialects",
      [](MlirDialectRegistry registry) { tfmlirRegisterAllDialects(registry); },
      nb::arg("registry"),
      "Inserts tf_type, tf, tf_executor and tf_device into a DialectRegistry.");

  m.def(
      "load_dialects",
      [](MlirContext context) {
        MlirDialectRegistry registry = mlirDialectRegistryCreate();
        tfmlirRegisterAllDialects(registry);
        mlirContextAppendDialectRegistry(context, registry);
        mlirDialectRegistryDestroy(registry);
        mlirContextLoadAllAvailableDialects(context);
      },
      nb::arg("context"),
      "Registers and loads the four TF dialects into `context`.");

  m.def(
      "print_operation",
      [](MlirOperation op, bool generic, bool debugInfo, bool prettyDebugInfo,
         bool localScope, bool assumeVerified, std::optional<int64_t> largeElementsLimit) {
        // One C++ string for the whole text: no Python call per printed token.
        std::string out;
        MlirOpPrintingFlags flags = mlirOpPrintingFlagsCreate();
        if (generic)
          mlirOpPrintingFlagsPrintGenericOpForm(flags);
        if (debugInfo)
          mlirOpPrintingFlagsEnableDebugInfo(flags, /*enable=*/true, prettyDebugInfo);
        if (localScope)
          mlirOpPrintingFlagsUseLocalScope(flags);
        if (assumeVerified)
          mlirOpPrintingFlagsAssumeVerified(flags);
        if (largeElementsLimit)
          mlirOpPrintingFlagsElideLargeElementsAttrs(flags, *largeElementsLimit);
        {
          nb::gil_scoped_release release;
          mlirOperationPrintWithFlags(
              op, flags,
              [](MlirStringRef chunk, void *userData) {
                static_cast<std::string *>(userData)->append(chunk.data, chunk.length);
              },
              &out);
        }
        mlirOpPrintingFlagsDestroy(flags);
        return out;
      },
      nb::arg("operation"), nb::arg("generic") = false, nb::arg("debug_info") = false,
      nb::arg("pretty_debug_info") = false, nb::arg("local_scope") = false,
      nb::arg("assume_verified") = false, nb::arg("large_elements_limit") = nb::none(),
      "The textual form of an operation (like str()/get_asm), printed into one buffer.");

  m.def(
      "registered_op_attributes",
      [](MlirContext context, const std::string &name)
          -> std::optional<std::pair<std::vector<std::string>, std::vector<std::string>>> {
        std::pair<std::vector<std::string>, std::vector<std::string>> result;
        bool found = tfmlirRegisteredOpAttributes(
            context, mlirStringRefCreate(name.data(), name.size()),
            [](MlirStringRef attr, bool isDerived, void *userData) {
              auto *out = static_cast<std::pair<std::vector<std::string>,
                                                std::vector<std::string>> *>(userData);
              (isDerived ? out->second : out->first).emplace_back(attr.data, attr.length);
            },
            &result);
        if (!found)
          return std::nullopt;
        return result;
      },
      nb::arg("context"), nb::arg("name"),
      "(stored, derived) attribute names of a registered op's ODS definition, "
      "or None if the op is not registered.");

#define TFMLIR_BIND_SIMPLE_TYPE(Name)                                          \
  mlir_type_subclass(m, #Name "Type", tfmlirTypeIsA##Name##Type)               \
      .def_classmethod(                                                        \
          "get",                                                               \
          [](nb::object cls, MlirContext ctx) {                                \
            return cls(tfmlir##Name##TypeGet(ctx));                            \
          },                                                                   \
          nb::arg("cls"), nb::arg("context") = nb::none());
  TFMLIR_FOR_EACH_SIMPLE_TYPE(TFMLIR_BIND_SIMPLE_TYPE)
#undef TFMLIR_BIND_SIMPLE_TYPE

  mlir_type_subclass(m, "ResourceType", tfmlirTypeIsAResourceType)
      .def_classmethod(
          "get",
          [](nb::object cls, std::vector<MlirType> subtypes, MlirContext ctx) {
            return cls(tfmlirResourceTypeGet(ctx, subtypes.size(), subtypes.data()));
          },
          nb::arg("cls"), nb::arg("subtypes") = std::vector<MlirType>(),
          nb::arg("context") = nb::none(),
          "!tf_type.resource, optionally with tensor subtypes")
      .def_property_readonly("subtypes", subtypeList);

  mlir_type_subclass(m, "VariantType", tfmlirTypeIsAVariantType)
      .def_classmethod(
          "get",
          [](nb::object cls, std::vector<MlirType> subtypes, MlirContext ctx) {
            return cls(tfmlirVariantTypeGet(ctx, subtypes.size(), subtypes.data()));
          },
          nb::arg("cls"), nb::arg("subtypes") = std::vector<MlirType>(),
          nb::arg("context") = nb::none(),
          "!tf_type.variant, optionally with tensor subtypes")
      .def_property_readonly("subtypes", subtypeList);

  mlir_type_subclass(m, "ControlType", tfmlirTypeIsAControlType)
      .def_classmethod(
          "get",
          [](nb::object cls, MlirContext ctx) { return cls(tfmlirControlTypeGet(ctx)); },
          nb::arg("cls"), nb::arg("context") = nb::none(), "!tf_executor.control");
  mlir_type_subclass(m, "TokenType", tfmlirTypeIsATokenType)
      .def_classmethod(
          "get",
          [](nb::object cls, MlirContext ctx) { return cls(tfmlirTokenTypeGet(ctx)); },
          nb::arg("cls"), nb::arg("context") = nb::none(), "!tf_executor.token");

  mlir_attribute_subclass(m, "ShapeAttr", tfmlirAttributeIsAShapeAttr)
      .def_classmethod(
          "get",
          [](nb::object cls, std::optional<std::vector<int64_t>> dims, MlirContext ctx) {
            if (!dims)
              return cls(tfmlirShapeAttrGet(ctx, -1, nullptr));
            for (int64_t &d : *dims)
              if (d < 0)
                d = tfmlirShapeDynamicDim();
            return cls(tfmlirShapeAttrGet(ctx, dims->size(), dims->data()));
          },
          nb::arg("cls"), nb::arg("dims").none(), nb::arg("context") = nb::none(),
          "#tf_type.shape: None for unranked, -1 (or None inside) for unknown dims")
      .def_property_readonly(
          "rank",
          [](MlirAttribute a) -> std::optional<intptr_t> {
            intptr_t r = tfmlirShapeAttrGetRank(a);
            if (r < 0)
              return std::nullopt;
            return r;
          })
      .def_property_readonly(
          "dims", [](MlirAttribute a) -> std::optional<std::vector<std::optional<int64_t>>> {
            intptr_t r = tfmlirShapeAttrGetRank(a);
            if (r < 0)
              return std::nullopt;
            std::vector<std::optional<int64_t>> dims;
            for (intptr_t i = 0; i < r; ++i) {
              int64_t d = tfmlirShapeAttrGetDim(a, i);
              if (d == tfmlirShapeDynamicDim())
                dims.push_back(std::nullopt);
              else
                dims.push_back(d);
            }
            return dims;
          });

  mlir_attribute_subclass(m, "FuncAttr", tfmlirAttributeIsAFuncAttr)
      .def_classmethod(
          "get",
          [](nb::object cls, const std::string &name, std::optional<MlirAttribute> attrs,
             MlirContext ctx) {
            return cls(tfmlirFuncAttrGet(
                ctx, mlirStringRefCreate(name.data(), name.size()),
                attrs ? *attrs : MlirAttribute{nullptr}));
          },
          nb::arg("cls"), nb::arg("name"), nb::arg("attrs") = nb::none(),
          nb::arg("context") = nb::none(), "#tf_type.func<@name, {attrs}>")
      .def_property_readonly("name", tfmlirFuncAttrGetName)
      .def_property_readonly("attrs", tfmlirFuncAttrGetAttrs);

  mlir_attribute_subclass(m, "PlaceholderAttr", tfmlirAttributeIsAPlaceholderAttr)
      .def_classmethod(
          "get",
          [](nb::object cls, const std::string &value, MlirContext ctx) {
            return cls(tfmlirPlaceholderAttrGet(
                ctx, mlirStringRefCreate(value.data(), value.size())));
          },
          nb::arg("cls"), nb::arg("value"), nb::arg("context") = nb::none(),
          "#tf_type.placeholder<\"name\">")
      .def_property_readonly("value", [](MlirAttribute a) {
        MlirStringRef s = tfmlirPlaceholderAttrGetValue(a);
        return std::string(s.data, s.length);
      });
  mlir_attribute_subclass(m, "TensorProtoAttr", tfmlirAttributeIsATensorProtoAttr)
      .def_classmethod(
          "get",
          [](nb::object cls, MlirType type, nb::bytes value) {
            if (!mlirTypeIsAShaped(type) || !mlirShapedTypeHasStaticShape(type))
              throw nb::value_error("TensorProtoAttr needs a statically shaped type (e.g. tensor<2xi8>)");
            return cls(tfmlirTensorProtoAttrGet(
                type, mlirStringRefCreate(static_cast<const char *>(value.data()), value.size())));
          },
          nb::arg("cls"), nb::arg("type"), nb::arg("value"),
          "#tf_type<tensor_proto : \"0x...\"> : type, from the mangled TensorProto bytes")
      .def_property_readonly(
          "value",
          [](MlirAttribute a) {
            MlirStringRef s = tfmlirTensorProtoAttrGetValue(a);
            return nb::bytes(s.data, s.length);
          },
          "the mangled TensorProto bytes (b\"tftensor$...\")")
      .def_property_readonly("hex", [](MlirAttribute a) {
        MlirStringRef s = tfmlirTensorProtoAttrGetValue(a);
        static const char digits[] = "0123456789ABCDEF";
        std::string out = "0x";
        out.reserve(2 + 2 * s.length);
        for (size_t i = 0; i < s.length; ++i) {
          unsigned char c = static_cast<unsigned char>(s.data[i]);
          out += digits[c >> 4];
          out += digits[c & 15];
        }
        return out;
      }, "the bytes as TensorFlow prints them: \"0x\" and upper-case hex");
}
