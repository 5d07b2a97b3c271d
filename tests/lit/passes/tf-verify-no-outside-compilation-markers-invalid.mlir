// RUN: tfmlir-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(func.func(tf-verify-no-outside-compilation-markers))'

// A marker left on an op in a cluster (TF's message).

func.func @marker_in_cluster(%arg0: tensor<i32>) -> tensor<i32> {
  %0 = "tf_device.cluster"() ({
    // expected-error @+1 {{Node `tf.Abs` has _xla_outside_compilation set which should have been removed by outside compilation}}
    %1 = "tf.Abs"(%arg0) {_xla_outside_compilation = "oc"} : (tensor<i32>) -> tensor<i32>
    tf_device.return %1 : tensor<i32>
  }) : () -> tensor<i32>
  func.return %0 : tensor<i32>
}

// -----

// Outside any cluster too, even an empty string.

func.func @marker_outside(%arg0: tensor<i32>) -> tensor<i32> {
  // expected-error @+1 {{Node `tf.Abs` has _xla_outside_compilation set which should have been removed by outside compilation}}
  %1 = "tf.Abs"(%arg0) {_xla_outside_compilation = ""} : (tensor<i32>) -> tensor<i32>
  func.return %1 : tensor<i32>
}

// -----

// A launch nested (at any depth) in a cluster (TF's message, at the
// cluster).

func.func @launch_in_cluster(%arg0: tensor<i1>, %arg1: tensor<i32>) {
  // expected-error @+1 {{Node `tf_device.cluster` is a launch op which should have been removed by outside compilation}}
  "tf_device.cluster"() ({
    "tf.IfRegion"(%arg0) ({
      "tf_device.launch"() <{device = "/job:w/replica:0/task:0/device:CPU:0"}> ({
        "tf.NoOp"() : () -> ()
        tf_device.return
      }) : () -> ()
      "tf.Yield"() : () -> ()
    }, {
      "tf.Yield"() : () -> ()
    }) {is_stateless = false} : (tensor<i1>) -> ()
    tf_device.return
  }) : () -> ()
  func.return
}

// -----

// The walk goes in post-order and stops at the first problem: a marked op
// inside the cluster comes before the cluster's launch, and a cluster both
// marked and holding a launch is reported for the launch.

func.func @first_in_post_order(%arg0: tensor<i32>) {
  "tf_device.cluster"() ({
    "tf_device.launch"() <{device = "/job:w/replica:0/task:0/device:CPU:0"}> ({
      tf_device.return
    }) : () -> ()
    // expected-error @+1 {{Node `tf.NoOp` has _xla_outside_compilation set}}
    "tf.NoOp"() {_xla_outside_compilation = "oc"} : () -> ()
    tf_device.return
  }) : () -> ()
  func.return
}

// -----

func.func @marked_cluster_with_launch() {
  // expected-error @+1 {{Node `tf_device.cluster` is a launch op}}
  "tf_device.cluster"() ({
    "tf_device.launch"() <{device = "/job:w/replica:0/task:0/device:CPU:0"}> ({
      tf_device.return
    }) : () -> ()
    tf_device.return
  }) {_xla_outside_compilation = "oc"} : () -> ()
  func.return
}

// -----

// The function itself is visited last.

// expected-error @+1 {{Node `func.func` has _xla_outside_compilation set}}
func.func @marked_function() attributes {_xla_outside_compilation = "oc"} {
  func.return
}
