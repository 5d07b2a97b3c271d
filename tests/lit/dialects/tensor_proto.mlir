// RUN: tfmlir-opt %s | FileCheck %s --strict-whitespace
// RUN: tfmlir-opt %s | tfmlir-opt | FileCheck %s --strict-whitespace
// RUN: tfmlir-opt %s --mlir-print-op-generic | tfmlir-opt --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: tfmlir-opt %s -canonicalize -cse | FileCheck %s --check-prefix=CANON
// RUN: tfmlir-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

// #tf_type<tensor_proto : "0x..."> as TensorFlow 2.21's importer prints the
// constants it keeps as mangled TensorProtos (a qint8 splat, int4, an empty
// TensorList variant, a resource handle, an empty qint8 tensor): parsed and
// printed back byte for byte, also through the generic form.

func.func @main() -> (tensor<4x!tf_type.qint8>, tensor<3xi4>, tensor<!tf_type.variant>, tensor<!tf_type.resource>, tensor<0x2x!tf_type.qint8>) {
  %0:5 = tf_executor.graph {
    %outputs, %control = tf_executor.island wraps "tf.Const"() <{value = #tf_type<tensor_proto : "0x746674656E736F722464747970653A2044545F51494E54382074656E736F725F7368617065207B2064696D207B2073697A653A2034207D207D2074656E736F725F636F6E74656E743A20225C3337355C6E5C6E5C6E22"> : tensor<4x!tf_type.qint8>}> {device = ""} : () -> tensor<4x!tf_type.qint8>
    %outputs_0, %control_1 = tf_executor.island wraps "tf.Const"() <{value = #tf_type<tensor_proto : "0x746674656E736F722464747970653A2044545F494E54342074656E736F725F7368617065207B2064696D207B2073697A653A2033207D207D2074656E736F725F636F6E74656E743A20225C3030315C3030325C30303322"> : tensor<3xi4>}> {device = ""} : () -> tensor<3xi4>
    %outputs_2, %control_3 = tf_executor.island wraps "tf.Const"() <{value = #tf_type<tensor_proto : "0x746674656E736F722464747970653A2044545F56415249414E542074656E736F725F7368617065207B207D2074656E736F725F636F6E74656E743A20222E5C6E5C30323674656E736F72666C6F773A3A54656E736F724C6973745C3032325C3032345C3030305C3030335C3030355C3032325C3031335C3031305C3337375C3337375C3337375C3337375C3337375C3337375C3337375C3337375C3337375C3030315C3032325C3030325C3031305C30303322"> : tensor<!tf_type.variant>}> {device = ""} : () -> tensor<!tf_type.variant>
    %outputs_4, %control_5 = tf_executor.island wraps "tf.Const"() <{value = #tf_type<tensor_proto : "0x746674656E736F722464747970653A2044545F5245534F555243452074656E736F725F7368617065207B207D2074656E736F725F636F6E74656E743A2022685C6E2C2F6A6F623A6C6F63616C686F73742F7265706C6963613A302F7461736B3A302F6465766963653A4350553A305C3032325C74416E6F6E796D6F75735C3033325C30303476762F30205C3334355C3336335C3234355C3336305C3235375C3234345C3232345C3233365C3336325C3030312A5C3032324E313074656E736F72666C6F773356617245325C3031305C3031305C3030315C3032325C3030345C3032325C3030325C3031305C30303222"> : tensor<!tf_type.resource>}> {device = ""} : () -> tensor<!tf_type.resource>
    %outputs_6, %control_7 = tf_executor.island wraps "tf.Const"() <{value = #tf_type<tensor_proto : "0x746674656E736F722464747970653A2044545F51494E54382074656E736F725F7368617065207B2064696D207B207D2064696D207B2073697A653A2032207D207D"> : tensor<0x2x!tf_type.qint8>}> {device = ""} : () -> tensor<0x2x!tf_type.qint8>
    tf_executor.fetch %outputs, %outputs_0, %outputs_2, %outputs_4, %outputs_6 : tensor<4x!tf_type.qint8>, tensor<3xi4>, tensor<!tf_type.variant>, tensor<!tf_type.resource>, tensor<0x2x!tf_type.qint8>
  }
  return %0#0, %0#1, %0#2, %0#3, %0#4 : tensor<4x!tf_type.qint8>, tensor<3xi4>, tensor<!tf_type.variant>, tensor<!tf_type.resource>, tensor<0x2x!tf_type.qint8>
}

// CHECK: %outputs, %control = tf_executor.island wraps "tf.Const"() <{value = #tf_type<tensor_proto : "0x746674656E736F722464747970653A2044545F51494E54382074656E736F725F7368617065207B2064696D207B2073697A653A2034207D207D2074656E736F725F636F6E74656E743A20225C3337355C6E5C6E5C6E22"> : tensor<4x!tf_type.qint8>}> {device = ""} : () -> tensor<4x!tf_type.qint8>
// CHECK-NEXT: %outputs_0, %control_1 = tf_executor.island wraps "tf.Const"() <{value = #tf_type<tensor_proto : "0x746674656E736F722464747970653A2044545F494E54342074656E736F725F7368617065207B2064696D207B2073697A653A2033207D207D2074656E736F725F636F6E74656E743A20225C3030315C3030325C30303322"> : tensor<3xi4>}> {device = ""} : () -> tensor<3xi4>
// CHECK-NEXT: %outputs_2, %control_3 = tf_executor.island wraps "tf.Const"() <{value = #tf_type<tensor_proto : "0x746674656E736F722464747970653A2044545F56415249414E542074656E736F725F7368617065207B207D2074656E736F725F636F6E74656E743A20222E5C6E5C30323674656E736F72666C6F773A3A54656E736F724C6973745C3032325C3032345C3030305C3030335C3030355C3032325C3031335C3031305C3337375C3337375C3337375C3337375C3337375C3337375C3337375C3337375C3337375C3030315C3032325C3030325C3031305C30303322"> : tensor<!tf_type.variant>}> {device = ""} : () -> tensor<!tf_type.variant>
// CHECK-NEXT: %outputs_4, %control_5 = tf_executor.island wraps "tf.Const"() <{value = #tf_type<tensor_proto : "0x746674656E736F722464747970653A2044545F5245534F555243452074656E736F725F7368617065207B207D2074656E736F725F636F6E74656E743A2022685C6E2C2F6A6F623A6C6F63616C686F73742F7265706C6963613A302F7461736B3A302F6465766963653A4350553A305C3032325C74416E6F6E796D6F75735C3033325C30303476762F30205C3334355C3336335C3234355C3336305C3235375C3234345C3232345C3233365C3336325C3030312A5C3032324E313074656E736F72666C6F773356617245325C3031305C3031305C3030315C3032325C3030345C3032325C3030325C3031305C30303222"> : tensor<!tf_type.resource>}> {device = ""} : () -> tensor<!tf_type.resource>
// CHECK-NEXT: %outputs_6, %control_7 = tf_executor.island wraps "tf.Const"() <{value = #tf_type<tensor_proto : "0x746674656E736F722464747970653A2044545F51494E54382074656E736F725F7368617065207B2064696D207B207D2064696D207B2073697A653A2032207D207D"> : tensor<0x2x!tf_type.qint8>}> {device = ""} : () -> tensor<0x2x!tf_type.qint8>

// Folding and CSE keep the constants as they are (opaque elements).
// CANON-COUNT-5: tf.Const
// CANON-NOT: dense

// GENERIC: "tf.Const"() <{value = #tf_type<tensor_proto : "0x746674656E736F722464747970653A2044545F51494E5438{{[0-9A-F]*}}"> : tensor<4x!tf_type.qint8>}> {device = ""} : () -> tensor<4x!tf_type.qint8>
