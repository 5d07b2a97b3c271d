// RUN: tfmlir-opt %s -split-input-file -tf-tpu-space-to-depth-pass | FileCheck %s

// A training loop: the while body reads images on the host and runs one TPU
// step whose first convolution (7x7, stride 2, 3 channels) is fed by them.
// The images get a host tf.SpaceToDepth, the convolution stride 1 and a
// 4x4x12 filter, and the filter gradient is computed in the new layout and
// turned back into 7x7x3.

module {
  func.func @main(%iterator: tensor<!tf_type.resource>, %kernel: tensor<!tf_type.resource<tensor<7x7x3x16xf32>>>, %step: tensor<!tf_type.resource<tensor<i64>>>) {
    %zero = "tf.Const"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
    %0:4 = "tf.While"(%zero, %iterator, %kernel, %step) {body = @train_step, cond = @train_cond, is_stateless = false} : (tensor<i32>, tensor<!tf_type.resource>, tensor<!tf_type.resource<tensor<7x7x3x16xf32>>>, tensor<!tf_type.resource<tensor<i64>>>) -> (tensor<i32>, tensor<!tf_type.resource>, tensor<!tf_type.resource<tensor<7x7x3x16xf32>>>, tensor<!tf_type.resource<tensor<i64>>>)
    func.return
  }
  func.func private @train_cond(%i: tensor<i32>, %iterator: tensor<!tf_type.resource>, %kernel: tensor<!tf_type.resource<tensor<7x7x3x16xf32>>>, %step: tensor<!tf_type.resource<tensor<i64>>>) -> tensor<i1> {
    %limit = "tf.Const"() {value = dense<100> : tensor<i32>} : () -> tensor<i32>
    %more = "tf.Less"(%i, %limit) : (tensor<i32>, tensor<i32>) -> tensor<i1>
    func.return %more : tensor<i1>
  }
  // CHECK-LABEL: func private @train_step
  // CHECK: %[[IMAGES:.*]] = "tf.IteratorGetNext"
  // CHECK-NEXT: %[[S2D:.*]] = "tf.SpaceToDepth"(%[[IMAGES]]) <{block_size = 2 : i64, data_format = "NHWC"}> : (tensor<4x64x64x3xf32>) -> tensor<4x32x32x12xf32>
  // CHECK: "tf_device.cluster_func"(%[[S2D]], %{{.*}}, %{{.*}}) <{func = @tpu_step}>
  // CHECK-SAME: : (tensor<4x32x32x12xf32>, tensor<7x7x3x16xf32>, tensor<i64>) -> (tensor<7x7x3x16xf32>, tensor<i64>)
  func.func private @train_step(%i: tensor<i32>, %iterator: tensor<!tf_type.resource>, %kernel: tensor<!tf_type.resource<tensor<7x7x3x16xf32>>>, %step: tensor<!tf_type.resource<tensor<i64>>>) -> (tensor<i32>, tensor<!tf_type.resource>, tensor<!tf_type.resource<tensor<7x7x3x16xf32>>>, tensor<!tf_type.resource<tensor<i64>>>) {
    %images = "tf.IteratorGetNext"(%iterator) {device = "/job:worker/replica:0/task:0/device:CPU:0"} : (tensor<!tf_type.resource>) -> tensor<4x64x64x3xf32>
    %w = "tf.ReadVariableOp"(%kernel) : (tensor<!tf_type.resource<tensor<7x7x3x16xf32>>>) -> tensor<7x7x3x16xf32>
    %s = "tf.ReadVariableOp"(%step) : (tensor<!tf_type.resource<tensor<i64>>>) -> tensor<i64>
    %r:2 = "tf_device.cluster_func"(%images, %w, %s) {func = @tpu_step, _replication_info = "train", _xla_compile_device_type = "TPU", device = "", num_cores_per_replica = 1 : i64, use_tpu = true} : (tensor<4x64x64x3xf32>, tensor<7x7x3x16xf32>, tensor<i64>) -> (tensor<7x7x3x16xf32>, tensor<i64>)
    "tf.AssignVariableOp"(%kernel, %r#0) : (tensor<!tf_type.resource<tensor<7x7x3x16xf32>>>, tensor<7x7x3x16xf32>) -> ()
    "tf.AssignVariableOp"(%step, %r#1) : (tensor<!tf_type.resource<tensor<i64>>>, tensor<i64>) -> ()
    %one = "tf.Const"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
    %next = "tf.AddV2"(%i, %one) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    func.return %next, %iterator, %kernel, %step : tensor<i32>, tensor<!tf_type.resource>, tensor<!tf_type.resource<tensor<7x7x3x16xf32>>>, tensor<!tf_type.resource<tensor<i64>>>
  }
  // CHECK-LABEL: func private @tpu_step
  // CHECK-SAME: (%[[X:.*]]: tensor<4x32x32x12xf32>, %[[W:.*]]: tensor<7x7x3x16xf32>, %{{.*}}: tensor<i64>) -> (tensor<7x7x3x16xf32>, tensor<i64>)
  // CHECK: %[[OLD_PADDINGS:.*]] = "tf.Const"() <{value = dense<{{\[\[}}0, 0], [3, 3], [3, 3], [0, 0]]> : tensor<4x2xi32>}>
  // CHECK-NEXT: %[[PADDINGS:.*]] = "tf.Const"() <{value = dense<{{\[\[}}0, 0], [2, 1], [2, 1], [0, 0]]> : tensor<4x2xi32>}>
  // CHECK-NEXT: %[[PADDED:.*]] = "tf.Pad"(%[[X]], %[[PADDINGS]]) : (tensor<4x32x32x12xf32>, tensor<4x2xi32>) -> tensor<4x35x35x12xf32>
  // CHECK-NEXT: %[[FP:.*]] = "tf.Const"() <{value = dense<{{\[\[}}1, 0], [1, 0], [0, 0], [0, 0]]> : tensor<4x2xi32>}>
  // CHECK-NEXT: %[[W8:.*]] = "tf.Pad"(%[[W]], %[[FP]]) : (tensor<7x7x3x16xf32>, tensor<4x2xi32>) -> tensor<8x8x3x16xf32>
  // CHECK-NEXT: %[[S0:.*]] = "tf.Const"() <{value = dense<[4, 2, 4, 2, 3, 16]> : tensor<6xi64>}>
  // CHECK-NEXT: %[[R0:.*]] = "tf.Reshape"(%[[W8]], %[[S0]]) : (tensor<8x8x3x16xf32>, tensor<6xi64>) -> tensor<4x2x4x2x3x16xf32>
  // CHECK-NEXT: %[[P0:.*]] = "tf.Const"() <{value = dense<[0, 2, 1, 3, 4, 5]> : tensor<6xi32>}>
  // CHECK-NEXT: %[[T0:.*]] = "tf.Transpose"(%[[R0]], %[[P0]]) : (tensor<4x2x4x2x3x16xf32>, tensor<6xi32>) -> tensor<4x4x2x2x3x16xf32>
  // CHECK-NEXT: %[[S1:.*]] = "tf.Const"() <{value = dense<[4, 4, 12, 16]> : tensor<4xi64>}>
  // CHECK-NEXT: %[[FILTER:.*]] = "tf.Reshape"(%[[T0]], %[[S1]]) : (tensor<4x4x2x2x3x16xf32>, tensor<4xi64>) -> tensor<4x4x12x16xf32>
  // CHECK-NEXT: %[[Y:.*]] = "tf.Conv2D"(%[[PADDED]], %[[FILTER]]) <{data_format = "NHWC", dilations = [1, 1, 1, 1], explicit_paddings = [], padding = "VALID", strides = [1, 1, 1, 1], use_cudnn_on_gpu = true}> : (tensor<4x35x35x12xf32>, tensor<4x4x12x16xf32>) -> tensor<4x32x32x16xf32>
  // CHECK-NEXT: %[[DY:.*]] = "tf.Relu"(%[[Y]])
  // CHECK-NEXT: %[[OLD_SIZES:.*]] = "tf.Const"() <{value = dense<[7, 7, 3, 16]> : tensor<4xi32>}>
  // CHECK-NEXT: %[[SIZES:.*]] = "tf.Const"() <{value = dense<[4, 4, 12, 16]> : tensor<4xi32>}>
  // CHECK-NEXT: %[[G:.*]] = "tf.Conv2DBackpropFilter"(%[[PADDED]], %[[SIZES]], %[[DY]]) <{data_format = "NHWC", dilations = [1, 1, 1, 1], explicit_paddings = [], padding = "VALID", strides = [1, 1, 1, 1], use_cudnn_on_gpu = true}> : (tensor<4x35x35x12xf32>, tensor<4xi32>, tensor<4x32x32x16xf32>) -> tensor<4x4x12x16xf32>
  // CHECK-NEXT: %[[S2:.*]] = "tf.Const"() <{value = dense<[4, 4, 2, 2, 3, 16]> : tensor<6xi64>}>
  // CHECK-NEXT: %[[R1:.*]] = "tf.Reshape"(%[[G]], %[[S2]]) : (tensor<4x4x12x16xf32>, tensor<6xi64>) -> tensor<4x4x2x2x3x16xf32>
  // CHECK-NEXT: %[[P1:.*]] = "tf.Const"() <{value = dense<[0, 2, 1, 3, 4, 5]> : tensor<6xi32>}>
  // CHECK-NEXT: %[[T1:.*]] = "tf.Transpose"(%[[R1]], %[[P1]]) : (tensor<4x4x2x2x3x16xf32>, tensor<6xi32>) -> tensor<4x2x4x2x3x16xf32>
  // CHECK-NEXT: %[[S3:.*]] = "tf.Const"() <{value = dense<[8, 8, 3, 16]> : tensor<4xi64>}>
  // CHECK-NEXT: %[[R2:.*]] = "tf.Reshape"(%[[T1]], %[[S3]]) : (tensor<4x2x4x2x3x16xf32>, tensor<4xi64>) -> tensor<8x8x3x16xf32>
  // CHECK-NEXT: %[[SIZE:.*]] = "tf.Const"() <{value = dense<[7, 7, 3, 16]> : tensor<4xi32>}>
  // CHECK-NEXT: %[[BEGIN:.*]] = "tf.Const"() <{value = dense<0> : tensor<4xi64>}>
  // CHECK-NEXT: %[[DW:.*]] = "tf.Slice"(%[[R2]], %[[BEGIN]], %[[SIZE]]) : (tensor<8x8x3x16xf32>, tensor<4xi64>, tensor<4xi32>) -> tensor<7x7x3x16xf32>
  // The old gradient stays, unused, with its old attributes.
  // CHECK-NEXT: "tf.Conv2DBackpropFilter"(%[[PADDED]], %[[OLD_SIZES]], %[[DY]]) <{{.*}}strides = [1, 2, 2, 1]{{.*}}}> {_grad = true, device = ""} : (tensor<4x35x35x12xf32>, tensor<4xi32>, tensor<4x32x32x16xf32>) -> tensor<7x7x3x16xf32>
  // CHECK: "tf.Mul"(%[[DW]], %{{.*}})
  func.func private @tpu_step(%images: tensor<4x64x64x3xf32>, %w: tensor<7x7x3x16xf32>, %s: tensor<i64>) -> (tensor<7x7x3x16xf32>, tensor<i64>) {
    %paddings = "tf.Const"() {value = dense<[[0, 0], [3, 3], [3, 3], [0, 0]]> : tensor<4x2xi32>} : () -> tensor<4x2xi32>
    %padded = "tf.Pad"(%images, %paddings) : (tensor<4x64x64x3xf32>, tensor<4x2xi32>) -> tensor<4x70x70x3xf32>
    %y = "tf.Conv2D"(%padded, %w) {data_format = "NHWC", dilations = [1, 1, 1, 1], explicit_paddings = [], padding = "VALID", strides = [1, 2, 2, 1], use_cudnn_on_gpu = true} : (tensor<4x70x70x3xf32>, tensor<7x7x3x16xf32>) -> tensor<4x32x32x16xf32>
    %dy = "tf.Relu"(%y) : (tensor<4x32x32x16xf32>) -> tensor<4x32x32x16xf32>
    %sizes = "tf.Const"() {value = dense<[7, 7, 3, 16]> : tensor<4xi32>} : () -> tensor<4xi32>
    %dw = "tf.Conv2DBackpropFilter"(%padded, %sizes, %dy) {data_format = "NHWC", dilations = [1, 1, 1, 1], explicit_paddings = [], padding = "VALID", strides = [1, 2, 2, 1], use_cudnn_on_gpu = true, device = "", _grad = true} : (tensor<4x70x70x3xf32>, tensor<4xi32>, tensor<4x32x32x16xf32>) -> tensor<7x7x3x16xf32>
    %rate = "tf.Const"() {value = dense<0.1> : tensor<f32>} : () -> tensor<f32>
    %scaled = "tf.Mul"(%dw, %rate) : (tensor<7x7x3x16xf32>, tensor<f32>) -> tensor<7x7x3x16xf32>
    %w1 = "tf.Sub"(%w, %scaled) : (tensor<7x7x3x16xf32>, tensor<7x7x3x16xf32>) -> tensor<7x7x3x16xf32>
    %one = "tf.Const"() {value = dense<1> : tensor<i64>} : () -> tensor<i64>
    %s1 = "tf.AddV2"(%s, %one) : (tensor<i64>, tensor<i64>) -> tensor<i64>
    func.return %w1, %s1 : tensor<7x7x3x16xf32>, tensor<i64>
  }
}

// -----

// Replicated images (a tf_device.replicate with devices): every replica's
// host input gets its own tf.SpaceToDepth and the block argument the new type.
// The filter is a packed input. A 3x3 filter pads to 4x4; the input padding
// becomes [1, 0].

module {
  // CHECK-LABEL: func @replicated
  // CHECK: %[[A:.*]] = "tf.IteratorGetNext"
  // CHECK-NEXT: %[[SA:.*]] = "tf.SpaceToDepth"(%[[A]]) <{block_size = 2 : i64, data_format = "NHWC"}> : (tensor<2x32x32x3xf32>) -> tensor<2x16x16x12xf32>
  // CHECK-NEXT: %[[B:.*]] = "tf.IteratorGetNext"
  // CHECK-NEXT: %[[SB:.*]] = "tf.SpaceToDepth"(%[[B]]) <{block_size = 2 : i64, data_format = "NHWC"}> : (tensor<2x32x32x3xf32>) -> tensor<2x16x16x12xf32>
  // CHECK-NEXT: tf_device.replicate([%[[SA]], %[[SB]]] as %[[I:.*]]: tensor<2x16x16x12xf32>, %{{.*}} as %[[F:.*]]: tensor<3x3x3x8xf32>)
  // CHECK-NEXT: "tf_device.cluster_func"(%[[I]], %[[F]]) <{func = @computation}> {{.*}} : (tensor<2x16x16x12xf32>, tensor<3x3x3x8xf32>) -> tensor<2x16x16x8xf32>
  func.func @replicated(%it0: tensor<!tf_type.resource>, %it1: tensor<!tf_type.resource>, %w: tensor<3x3x3x8xf32>) {
    %a = "tf.IteratorGetNext"(%it0) {device = "/job:worker/replica:0/task:0/device:CPU:0"} : (tensor<!tf_type.resource>) -> tensor<2x32x32x3xf32>
    %b = "tf.IteratorGetNext"(%it1) {device = "/job:worker/replica:0/task:0/device:CPU:0"} : (tensor<!tf_type.resource>) -> tensor<2x32x32x3xf32>
    %0:2 = tf_device.replicate([%a, %b] as %images: tensor<2x32x32x3xf32>, %w as %filter: tensor<3x3x3x8xf32>) {n = 2 : i32, devices = {TPU_REPLICATED_CORE_0 = ["/job:worker/replica:0/task:0/device:TPU:0", "/job:worker/replica:0/task:0/device:TPU:1"]}} {
      %1 = "tf_device.cluster_func"(%images, %filter) {func = @computation, _replication_info = "r", _xla_compile_device_type = "TPU"} : (tensor<2x32x32x3xf32>, tensor<3x3x3x8xf32>) -> tensor<2x16x16x8xf32>
      tf_device.return %1 : tensor<2x16x16x8xf32>
    }
    func.return
  }
  // CHECK-LABEL: func private @computation
  // CHECK-SAME: (%[[X:.*]]: tensor<2x16x16x12xf32>, %[[W:.*]]: tensor<3x3x3x8xf32>) -> tensor<2x16x16x8xf32>
  // CHECK: %[[PADDINGS:.*]] = "tf.Const"() <{value = dense<{{\[\[}}0, 0], [1, 0], [1, 0], [0, 0]]> : tensor<4x2xi32>}>
  // CHECK-NEXT: %[[PADDED:.*]] = "tf.Pad"(%[[X]], %[[PADDINGS]]) : (tensor<2x16x16x12xf32>, tensor<4x2xi32>) -> tensor<2x17x17x12xf32>
  // CHECK-NEXT: "tf.Const"() <{value = dense<{{\[\[}}1, 0], [1, 0], [0, 0], [0, 0]]> : tensor<4x2xi32>}>
  // CHECK-NEXT: "tf.Pad"(%[[W]], %{{.*}}) : (tensor<3x3x3x8xf32>, tensor<4x2xi32>) -> tensor<4x4x3x8xf32>
  // CHECK: %[[FILTER:.*]] = "tf.Reshape"{{.*}} -> tensor<2x2x12x8xf32>
  // CHECK-NEXT: "tf.Conv2D"(%[[PADDED]], %[[FILTER]]) <{padding = "VALID", strides = [1, 1, 1, 1]}> : (tensor<2x17x17x12xf32>, tensor<2x2x12x8xf32>) -> tensor<2x16x16x8xf32>
  func.func private @computation(%images: tensor<2x32x32x3xf32>, %w: tensor<3x3x3x8xf32>) -> tensor<2x16x16x8xf32> {
    %paddings = "tf.Const"() {value = dense<[[0, 0], [1, 1], [1, 1], [0, 0]]> : tensor<4x2xi32>} : () -> tensor<4x2xi32>
    %padded = "tf.Pad"(%images, %paddings) : (tensor<2x32x32x3xf32>, tensor<4x2xi32>) -> tensor<2x34x34x3xf32>
    %y = "tf.Conv2D"(%padded, %w) {padding = "VALID", strides = [1, 2, 2, 1]} : (tensor<2x34x34x3xf32>, tensor<3x3x3x8xf32>) -> tensor<2x16x16x8xf32>
    func.return %y : tensor<2x16x16x8xf32>
  }
}

// -----

// A replicate without devices: the host is left alone, but the computation is
// still rewritten (as TF: the replicated input then differs from the callee's
// argument type).

module {
  // CHECK-LABEL: func @replicated_without_devices
  // CHECK-NOT: tf.SpaceToDepth
  // CHECK: tf_device.replicate([%{{.*}}, %{{.*}}] as %[[I:.*]]: tensor<2x32x32x3xf32>)
  // CHECK-NEXT: "tf_device.cluster_func"(%[[I]], %{{.*}}) <{func = @computation}> : (tensor<2x32x32x3xf32>, tensor<3x3x3x8xf32>)
  func.func @replicated_without_devices(%it0: tensor<!tf_type.resource>, %it1: tensor<!tf_type.resource>, %w: tensor<3x3x3x8xf32>) {
    %a = "tf.IteratorGetNext"(%it0) {device = "/job:worker/replica:0/task:0/device:CPU:0"} : (tensor<!tf_type.resource>) -> tensor<2x32x32x3xf32>
    %b = "tf.IteratorGetNext"(%it1) {device = "/job:worker/replica:0/task:0/device:CPU:0"} : (tensor<!tf_type.resource>) -> tensor<2x32x32x3xf32>
    tf_device.replicate([%a, %b] as %images: tensor<2x32x32x3xf32>) {n = 2 : i32} {
      %1 = "tf_device.cluster_func"(%images, %w) {func = @computation} : (tensor<2x32x32x3xf32>, tensor<3x3x3x8xf32>) -> tensor<2x16x16x8xf32>
      tf_device.return
    }
    func.return
  }
  // CHECK-LABEL: func private @computation
  // CHECK-SAME: (%{{.*}}: tensor<2x16x16x12xf32>, %{{.*}}: tensor<3x3x3x8xf32>) -> tensor<2x16x16x8xf32>
  // CHECK: "tf.Conv2D"{{.*}}strides = [1, 1, 1, 1]{{.*}} : (tensor<2x17x17x12xf32>, tensor<2x2x12x8xf32>) -> tensor<2x16x16x8xf32>
  func.func private @computation(%images: tensor<2x32x32x3xf32>, %w: tensor<3x3x3x8xf32>) -> tensor<2x16x16x8xf32> {
    %paddings = "tf.Const"() {value = dense<[[0, 0], [1, 1], [1, 1], [0, 0]]> : tensor<4x2xi32>} : () -> tensor<4x2xi32>
    %padded = "tf.Pad"(%images, %paddings) : (tensor<2x32x32x3xf32>, tensor<4x2xi32>) -> tensor<2x34x34x3xf32>
    %y = "tf.Conv2D"(%padded, %w) {padding = "VALID", strides = [1, 2, 2, 1]} : (tensor<2x34x34x3xf32>, tensor<3x3x3x8xf32>) -> tensor<2x16x16x8xf32>
    func.return %y : tensor<2x16x16x8xf32>
  }
}

// -----

// An input that is not read on a CPU host (an IteratorGetNext placed on a
// TPU): the host is left alone, the computation is still rewritten.

module {
  // CHECK-LABEL: func @tpu_iterator
  // CHECK-NOT: tf.SpaceToDepth
  // CHECK: "tf_device.cluster_func"(%{{.*}}, %{{.*}}) <{func = @computation}> : (tensor<2x32x32x3xf32>, tensor<3x3x3x8xf32>)
  func.func @tpu_iterator(%it: tensor<!tf_type.resource>, %w: tensor<3x3x3x8xf32>) {
    %a = "tf.IteratorGetNext"(%it) {device = "/job:worker/replica:0/task:0/device:TPU:0"} : (tensor<!tf_type.resource>) -> tensor<2x32x32x3xf32>
    %1 = "tf_device.cluster_func"(%a, %w) {func = @computation} : (tensor<2x32x32x3xf32>, tensor<3x3x3x8xf32>) -> tensor<2x16x16x8xf32>
    func.return
  }
  // CHECK-LABEL: func private @computation
  // CHECK-SAME: (%{{.*}}: tensor<2x16x16x12xf32>, %{{.*}}: tensor<3x3x3x8xf32>) -> tensor<2x16x16x8xf32>
  // CHECK: "tf.Conv2D"{{.*}}strides = [1, 1, 1, 1]{{.*}} : (tensor<2x17x17x12xf32>, tensor<2x2x12x8xf32>) -> tensor<2x16x16x8xf32>
  func.func private @computation(%images: tensor<2x32x32x3xf32>, %w: tensor<3x3x3x8xf32>) -> tensor<2x16x16x8xf32> {
    %paddings = "tf.Const"() {value = dense<[[0, 0], [1, 1], [1, 1], [0, 0]]> : tensor<4x2xi32>} : () -> tensor<4x2xi32>
    %padded = "tf.Pad"(%images, %paddings) : (tensor<2x32x32x3xf32>, tensor<4x2xi32>) -> tensor<2x34x34x3xf32>
    %y = "tf.Conv2D"(%padded, %w) {padding = "VALID", strides = [1, 2, 2, 1]} : (tensor<2x34x34x3xf32>, tensor<3x3x3x8xf32>) -> tensor<2x16x16x8xf32>
    func.return %y : tensor<2x16x16x8xf32>
  }
}

// -----

// The input is a function argument, not an op result: same.

module {
  // CHECK-LABEL: func @argument_input
  // CHECK-NOT: tf.SpaceToDepth
  // CHECK: "tf_device.cluster_func"(%{{.*}}, %{{.*}}) <{func = @computation}> : (tensor<2x32x32x3xf32>, tensor<3x3x3x8xf32>)
  func.func @argument_input(%images: tensor<2x32x32x3xf32>, %w: tensor<3x3x3x8xf32>) {
    %1 = "tf_device.cluster_func"(%images, %w) {func = @computation} : (tensor<2x32x32x3xf32>, tensor<3x3x3x8xf32>) -> tensor<2x16x16x8xf32>
    func.return
  }
  // CHECK-LABEL: func private @computation
  // CHECK-SAME: (%{{.*}}: tensor<2x16x16x12xf32>, %{{.*}}: tensor<3x3x3x8xf32>) -> tensor<2x16x16x8xf32>
  // CHECK: "tf.Conv2D"{{.*}}strides = [1, 1, 1, 1]{{.*}} : (tensor<2x17x17x12xf32>, tensor<2x2x12x8xf32>) -> tensor<2x16x16x8xf32>
  func.func private @computation(%images: tensor<2x32x32x3xf32>, %w: tensor<3x3x3x8xf32>) -> tensor<2x16x16x8xf32> {
    %paddings = "tf.Const"() {value = dense<[[0, 0], [1, 1], [1, 1], [0, 0]]> : tensor<4x2xi32>} : () -> tensor<4x2xi32>
    %padded = "tf.Pad"(%images, %paddings) : (tensor<2x32x32x3xf32>, tensor<4x2xi32>) -> tensor<2x34x34x3xf32>
    %y = "tf.Conv2D"(%padded, %w) {padding = "VALID", strides = [1, 2, 2, 1]} : (tensor<2x34x34x3xf32>, tensor<3x3x3x8xf32>) -> tensor<2x16x16x8xf32>
    func.return %y : tensor<2x16x16x8xf32>
  }
}
// -----
// Stride 1: no block size, nothing changes.

module {
  // CHECK-LABEL: func @stride_one
  // CHECK-NOT: tf.SpaceToDepth
  func.func @stride_one(%it: tensor<!tf_type.resource>, %w: tensor<3x3x3x8xf32>) {
    %a = "tf.IteratorGetNext"(%it) {device = "/job:worker/replica:0/task:0/device:CPU:0"} : (tensor<!tf_type.resource>) -> tensor<2x32x32x3xf32>
    %1 = "tf_device.cluster_func"(%a, %w) {func = @computation} : (tensor<2x32x32x3xf32>, tensor<3x3x3x8xf32>) -> tensor<2x32x32x8xf32>
    func.return
  }
  // CHECK-LABEL: func private @computation
  // CHECK-SAME: (%{{.*}}: tensor<2x32x32x3xf32>, %{{.*}}: tensor<3x3x3x8xf32>) -> tensor<2x32x32x8xf32>
  // CHECK: "tf.Conv2D"(%{{.*}}, %{{.*}}) <{padding = "VALID", strides = [1, 1, 1, 1]}> : (tensor<2x34x34x3xf32>, tensor<3x3x3x8xf32>) -> tensor<2x32x32x8xf32>
  func.func private @computation(%images: tensor<2x32x32x3xf32>, %w: tensor<3x3x3x8xf32>) -> tensor<2x32x32x8xf32> {
    %paddings = "tf.Const"() {value = dense<[[0, 0], [1, 1], [1, 1], [0, 0]]> : tensor<4x2xi32>} : () -> tensor<4x2xi32>
    %padded = "tf.Pad"(%images, %paddings) : (tensor<2x32x32x3xf32>, tensor<4x2xi32>) -> tensor<2x34x34x3xf32>
    %y = "tf.Conv2D"(%padded, %w) {padding = "VALID", strides = [1, 1, 1, 1]} : (tensor<2x34x34x3xf32>, tensor<3x3x3x8xf32>) -> tensor<2x32x32x8xf32>
    func.return %y : tensor<2x32x32x8xf32>
  }
}

// -----

// Different strides in height and width: nothing changes.

module {
  // CHECK-LABEL: func @uneven_strides
  // CHECK-NOT: tf.SpaceToDepth
  func.func @uneven_strides(%it: tensor<!tf_type.resource>, %w: tensor<3x3x3x8xf32>) {
    %a = "tf.IteratorGetNext"(%it) {device = "/job:worker/replica:0/task:0/device:CPU:0"} : (tensor<!tf_type.resource>) -> tensor<2x32x32x3xf32>
    %1 = "tf_device.cluster_func"(%a, %w) {func = @computation} : (tensor<2x32x32x3xf32>, tensor<3x3x3x8xf32>) -> tensor<2x16x11x8xf32>
    func.return
  }
  // CHECK-LABEL: func private @computation
  // CHECK-SAME: (%{{.*}}: tensor<2x32x32x3xf32>, %{{.*}}: tensor<3x3x3x8xf32>) -> tensor<2x16x11x8xf32>
  // CHECK: "tf.Conv2D"(%{{.*}}, %{{.*}}) <{padding = "VALID", strides = [1, 2, 3, 1]}> : (tensor<2x34x34x3xf32>, tensor<3x3x3x8xf32>) -> tensor<2x16x11x8xf32>
  func.func private @computation(%images: tensor<2x32x32x3xf32>, %w: tensor<3x3x3x8xf32>) -> tensor<2x16x11x8xf32> {
    %paddings = "tf.Const"() {value = dense<[[0, 0], [1, 1], [1, 1], [0, 0]]> : tensor<4x2xi32>} : () -> tensor<4x2xi32>
    %padded = "tf.Pad"(%images, %paddings) : (tensor<2x32x32x3xf32>, tensor<4x2xi32>) -> tensor<2x34x34x3xf32>
    %y = "tf.Conv2D"(%padded, %w) {padding = "VALID", strides = [1, 2, 3, 1]} : (tensor<2x34x34x3xf32>, tensor<3x3x3x8xf32>) -> tensor<2x16x11x8xf32>
    func.return %y : tensor<2x16x11x8xf32>
  }
}

// -----

// A batch stride: nothing changes.

module {
  // CHECK-LABEL: func @batch_stride
  // CHECK-NOT: tf.SpaceToDepth
  func.func @batch_stride(%it: tensor<!tf_type.resource>, %w: tensor<3x3x3x8xf32>) {
    %a = "tf.IteratorGetNext"(%it) {device = "/job:worker/replica:0/task:0/device:CPU:0"} : (tensor<!tf_type.resource>) -> tensor<2x32x32x3xf32>
    %1 = "tf_device.cluster_func"(%a, %w) {func = @computation} : (tensor<2x32x32x3xf32>, tensor<3x3x3x8xf32>) -> tensor<2x16x16x8xf32>
    func.return
  }
  // CHECK-LABEL: func private @computation
  // CHECK-SAME: (%{{.*}}: tensor<2x32x32x3xf32>, %{{.*}}: tensor<3x3x3x8xf32>) -> tensor<2x16x16x8xf32>
  // CHECK: "tf.Conv2D"(%{{.*}}, %{{.*}}) <{padding = "VALID", strides = [2, 2, 2, 1]}> : (tensor<2x34x34x3xf32>, tensor<3x3x3x8xf32>) -> tensor<2x16x16x8xf32>
  func.func private @computation(%images: tensor<2x32x32x3xf32>, %w: tensor<3x3x3x8xf32>) -> tensor<2x16x16x8xf32> {
    %paddings = "tf.Const"() {value = dense<[[0, 0], [1, 1], [1, 1], [0, 0]]> : tensor<4x2xi32>} : () -> tensor<4x2xi32>
    %padded = "tf.Pad"(%images, %paddings) : (tensor<2x32x32x3xf32>, tensor<4x2xi32>) -> tensor<2x34x34x3xf32>
    %y = "tf.Conv2D"(%padded, %w) {padding = "VALID", strides = [2, 2, 2, 1]} : (tensor<2x34x34x3xf32>, tensor<3x3x3x8xf32>) -> tensor<2x16x16x8xf32>
    func.return %y : tensor<2x16x16x8xf32>
  }
}

// -----

// More than 8 channels: nothing changes.

module {
  // CHECK-LABEL: func @many_channels
  // CHECK-NOT: tf.SpaceToDepth
  func.func @many_channels(%it: tensor<!tf_type.resource>, %w: tensor<3x3x9x8xf32>) {
    %a = "tf.IteratorGetNext"(%it) {device = "/job:worker/replica:0/task:0/device:CPU:0"} : (tensor<!tf_type.resource>) -> tensor<2x32x32x9xf32>
    %1 = "tf_device.cluster_func"(%a, %w) {func = @computation} : (tensor<2x32x32x9xf32>, tensor<3x3x9x8xf32>) -> tensor<2x16x16x8xf32>
    func.return
  }
  // CHECK-LABEL: func private @computation
  // CHECK-SAME: (%{{.*}}: tensor<2x32x32x9xf32>, %{{.*}}: tensor<3x3x9x8xf32>) -> tensor<2x16x16x8xf32>
  // CHECK: "tf.Conv2D"(%{{.*}}, %{{.*}}) <{padding = "VALID", strides = [1, 2, 2, 1]}> : (tensor<2x34x34x9xf32>, tensor<3x3x9x8xf32>) -> tensor<2x16x16x8xf32>
  func.func private @computation(%images: tensor<2x32x32x9xf32>, %w: tensor<3x3x9x8xf32>) -> tensor<2x16x16x8xf32> {
    %paddings = "tf.Const"() {value = dense<[[0, 0], [1, 1], [1, 1], [0, 0]]> : tensor<4x2xi32>} : () -> tensor<4x2xi32>
    %padded = "tf.Pad"(%images, %paddings) : (tensor<2x32x32x9xf32>, tensor<4x2xi32>) -> tensor<2x34x34x9xf32>
    %y = "tf.Conv2D"(%padded, %w) {padding = "VALID", strides = [1, 2, 2, 1]} : (tensor<2x34x34x9xf32>, tensor<3x3x9x8xf32>) -> tensor<2x16x16x8xf32>
    func.return %y : tensor<2x16x16x8xf32>
  }
}

// -----

// A batch larger than 8: nothing changes.

module {
  // CHECK-LABEL: func @large_batch
  // CHECK-NOT: tf.SpaceToDepth
  func.func @large_batch(%it: tensor<!tf_type.resource>, %w: tensor<3x3x3x8xf32>) {
    %a = "tf.IteratorGetNext"(%it) {device = "/job:worker/replica:0/task:0/device:CPU:0"} : (tensor<!tf_type.resource>) -> tensor<16x32x32x3xf32>
    %1 = "tf_device.cluster_func"(%a, %w) {func = @computation} : (tensor<16x32x32x3xf32>, tensor<3x3x3x8xf32>) -> tensor<16x16x16x8xf32>
    func.return
  }
  // CHECK-LABEL: func private @computation
  // CHECK-SAME: (%{{.*}}: tensor<16x32x32x3xf32>, %{{.*}}: tensor<3x3x3x8xf32>) -> tensor<16x16x16x8xf32>
  // CHECK: "tf.Conv2D"(%{{.*}}, %{{.*}}) <{padding = "VALID", strides = [1, 2, 2, 1]}> : (tensor<16x34x34x3xf32>, tensor<3x3x3x8xf32>) -> tensor<16x16x16x8xf32>
  func.func private @computation(%images: tensor<16x32x32x3xf32>, %w: tensor<3x3x3x8xf32>) -> tensor<16x16x16x8xf32> {
    %paddings = "tf.Const"() {value = dense<[[0, 0], [1, 1], [1, 1], [0, 0]]> : tensor<4x2xi32>} : () -> tensor<4x2xi32>
    %padded = "tf.Pad"(%images, %paddings) : (tensor<16x32x32x3xf32>, tensor<4x2xi32>) -> tensor<16x34x34x3xf32>
    %y = "tf.Conv2D"(%padded, %w) {padding = "VALID", strides = [1, 2, 2, 1]} : (tensor<16x34x34x3xf32>, tensor<3x3x3x8xf32>) -> tensor<16x16x16x8xf32>
    func.return %y : tensor<16x16x16x8xf32>
  }
}

// -----

// NCHW: nothing changes.

module {
  // CHECK-LABEL: func @nchw
  // CHECK-NOT: tf.SpaceToDepth
  func.func @nchw(%it: tensor<!tf_type.resource>, %w: tensor<3x3x3x8xf32>) {
    %a = "tf.IteratorGetNext"(%it) {device = "/job:worker/replica:0/task:0/device:CPU:0"} : (tensor<!tf_type.resource>) -> tensor<2x3x32x32xf32>
    %1 = "tf_device.cluster_func"(%a, %w) {func = @computation} : (tensor<2x3x32x32xf32>, tensor<3x3x3x8xf32>) -> tensor<2x8x15x15xf32>
    func.return
  }
  // CHECK-LABEL: func private @computation
  // CHECK-SAME: (%{{.*}}: tensor<2x3x32x32xf32>, %{{.*}}: tensor<3x3x3x8xf32>) -> tensor<2x8x15x15xf32>
  // CHECK: "tf.Conv2D"(%{{.*}}, %{{.*}}) <{data_format = "NCHW", padding = "VALID", strides = [1, 1, 2, 2]}> : (tensor<2x3x32x32xf32>, tensor<3x3x3x8xf32>) -> tensor<2x8x15x15xf32>
  func.func private @computation(%images: tensor<2x3x32x32xf32>, %w: tensor<3x3x3x8xf32>) -> tensor<2x8x15x15xf32> {
    %y = "tf.Conv2D"(%images, %w) {data_format = "NCHW", padding = "VALID", strides = [1, 1, 2, 2]} : (tensor<2x3x32x32xf32>, tensor<3x3x3x8xf32>) -> tensor<2x8x15x15xf32>
    func.return %y : tensor<2x8x15x15xf32>
  }
}

// -----

// The argument has another use (it is also returned): nothing changes.

module {
  // CHECK-LABEL: func @two_uses
  // CHECK-NOT: tf.SpaceToDepth
  func.func @two_uses(%it: tensor<!tf_type.resource>, %w: tensor<3x3x3x8xf32>) {
    %a = "tf.IteratorGetNext"(%it) {device = "/job:worker/replica:0/task:0/device:CPU:0"} : (tensor<!tf_type.resource>) -> tensor<2x32x32x3xf32>
    %1:2 = "tf_device.cluster_func"(%a, %w) {func = @computation} : (tensor<2x32x32x3xf32>, tensor<3x3x3x8xf32>) -> (tensor<2x16x16x8xf32>, tensor<2x32x32x3xf32>)
    func.return
  }
  // CHECK-LABEL: func private @computation
  // CHECK-SAME: (%{{.*}}: tensor<2x32x32x3xf32>, %{{.*}}: tensor<3x3x3x8xf32>) -> (tensor<2x16x16x8xf32>, tensor<2x32x32x3xf32>)
  // CHECK: "tf.Conv2D"(%{{.*}}, %{{.*}}) <{padding = "VALID", strides = [1, 2, 2, 1]}> : (tensor<2x34x34x3xf32>, tensor<3x3x3x8xf32>) -> tensor<2x16x16x8xf32>
  func.func private @computation(%images: tensor<2x32x32x3xf32>, %w: tensor<3x3x3x8xf32>) -> (tensor<2x16x16x8xf32>, tensor<2x32x32x3xf32>) {
    %paddings = "tf.Const"() {value = dense<[[0, 0], [1, 1], [1, 1], [0, 0]]> : tensor<4x2xi32>} : () -> tensor<4x2xi32>
    %padded = "tf.Pad"(%images, %paddings) : (tensor<2x32x32x3xf32>, tensor<4x2xi32>) -> tensor<2x34x34x3xf32>
    %y = "tf.Conv2D"(%padded, %w) {padding = "VALID", strides = [1, 2, 2, 1]} : (tensor<2x34x34x3xf32>, tensor<3x3x3x8xf32>) -> tensor<2x16x16x8xf32>
    func.return %y, %images : tensor<2x16x16x8xf32>, tensor<2x32x32x3xf32>
  }
}

// -----
// Only the first convolution fed (through pads and casts) by a small enough
// argument is looked at: here it has stride 1, so the stride-2 one after it
// is left alone too.

module {
  // CHECK-LABEL: func @first_candidate
  // CHECK-NOT: tf.SpaceToDepth
  func.func @first_candidate(%it: tensor<!tf_type.resource>, %w: tensor<3x3x3x8xf32>) {
    %a:2 = "tf.IteratorGetNext"(%it) {device = "/job:worker/replica:0/task:0/device:CPU:0"} : (tensor<!tf_type.resource>) -> (tensor<2x32x32x3xf32>, tensor<2x32x32x3xf32>)
    %1:2 = "tf_device.cluster_func"(%a#0, %a#1, %w) {func = @computation} : (tensor<2x32x32x3xf32>, tensor<2x32x32x3xf32>, tensor<3x3x3x8xf32>) -> (tensor<2x30x30x8xf32>, tensor<2x16x16x8xf32>)
    func.return
  }
  // CHECK-LABEL: func private @computation
  // CHECK-SAME: (%{{.*}}: tensor<2x32x32x3xf32>, %{{.*}}: tensor<2x32x32x3xf32>, %{{.*}}: tensor<3x3x3x8xf32>)
  // CHECK: "tf.Conv2D"{{.*}}strides = [1, 1, 1, 1]{{.*}} -> tensor<2x30x30x8xf32>
  // CHECK: "tf.Conv2D"{{.*}}strides = [1, 2, 2, 1]{{.*}} -> tensor<2x16x16x8xf32>
  func.func private @computation(%x: tensor<2x32x32x3xf32>, %images: tensor<2x32x32x3xf32>, %w: tensor<3x3x3x8xf32>) -> (tensor<2x30x30x8xf32>, tensor<2x16x16x8xf32>) {
    %z = "tf.Conv2D"(%x, %w) {padding = "VALID", strides = [1, 1, 1, 1]} : (tensor<2x32x32x3xf32>, tensor<3x3x3x8xf32>) -> tensor<2x30x30x8xf32>
    %paddings = "tf.Const"() {value = dense<[[0, 0], [1, 1], [1, 1], [0, 0]]> : tensor<4x2xi32>} : () -> tensor<4x2xi32>
    %padded = "tf.Pad"(%images, %paddings) : (tensor<2x32x32x3xf32>, tensor<4x2xi32>) -> tensor<2x34x34x3xf32>
    %y = "tf.Conv2D"(%padded, %w) {padding = "VALID", strides = [1, 2, 2, 1]} : (tensor<2x34x34x3xf32>, tensor<3x3x3x8xf32>) -> tensor<2x16x16x8xf32>
    func.return %z, %y : tensor<2x30x30x8xf32>, tensor<2x16x16x8xf32>
  }
}

// -----

// A convolution whose input is not an argument (through pads and casts) is
// skipped: the next one, on the second argument, is rewritten (its host input
// is the cluster_func's second operand).

module {
  // CHECK-LABEL: func @skip_non_argument
  // CHECK: %[[A:.*]]:2 = "tf.IteratorGetNext"
  // CHECK-NEXT: %[[S:.*]] = "tf.SpaceToDepth"(%[[A]]#1)
  // CHECK-NEXT: "tf_device.cluster_func"(%[[A]]#0, %[[S]], %{{.*}})
  func.func @skip_non_argument(%it: tensor<!tf_type.resource>, %w: tensor<3x3x3x8xf32>) {
    %a:2 = "tf.IteratorGetNext"(%it) {device = "/job:worker/replica:0/task:0/device:CPU:0"} : (tensor<!tf_type.resource>) -> (tensor<2x32x32x3xf32>, tensor<2x32x32x3xf32>)
    %1:2 = "tf_device.cluster_func"(%a#0, %a#1, %w) {func = @computation} : (tensor<2x32x32x3xf32>, tensor<2x32x32x3xf32>, tensor<3x3x3x8xf32>) -> (tensor<2x16x16x8xf32>, tensor<2x16x16x8xf32>)
    func.return
  }
  // CHECK-LABEL: func private @computation
  // CHECK-SAME: (%{{.*}}: tensor<2x32x32x3xf32>, %{{.*}}: tensor<2x16x16x12xf32>, %{{.*}}: tensor<3x3x3x8xf32>)
  // CHECK: "tf.Conv2D"{{.*}}strides = [1, 2, 2, 1]{{.*}} : (tensor<2x34x34x3xf32>, tensor<3x3x3x8xf32>) -> tensor<2x16x16x8xf32>
  // CHECK: "tf.Conv2D"{{.*}}strides = [1, 1, 1, 1]{{.*}} : (tensor<2x17x17x12xf32>, tensor<2x2x12x8xf32>) -> tensor<2x16x16x8xf32>
  func.func private @computation(%x: tensor<2x32x32x3xf32>, %images: tensor<2x32x32x3xf32>, %w: tensor<3x3x3x8xf32>) -> (tensor<2x16x16x8xf32>, tensor<2x16x16x8xf32>) {
    %paddings = "tf.Const"() {value = dense<[[0, 0], [1, 1], [1, 1], [0, 0]]> : tensor<4x2xi32>} : () -> tensor<4x2xi32>
    %neg = "tf.Neg"(%x) : (tensor<2x32x32x3xf32>) -> tensor<2x32x32x3xf32>
    %p0 = "tf.Pad"(%neg, %paddings) : (tensor<2x32x32x3xf32>, tensor<4x2xi32>) -> tensor<2x34x34x3xf32>
    %z = "tf.Conv2D"(%p0, %w) {padding = "VALID", strides = [1, 2, 2, 1]} : (tensor<2x34x34x3xf32>, tensor<3x3x3x8xf32>) -> tensor<2x16x16x8xf32>
    %padded = "tf.Pad"(%images, %paddings) : (tensor<2x32x32x3xf32>, tensor<4x2xi32>) -> tensor<2x34x34x3xf32>
    %y = "tf.Conv2D"(%padded, %w) {padding = "VALID", strides = [1, 2, 2, 1]} : (tensor<2x34x34x3xf32>, tensor<3x3x3x8xf32>) -> tensor<2x16x16x8xf32>
    func.return %z, %y : tensor<2x16x16x8xf32>, tensor<2x16x16x8xf32>
  }
}

// -----

// The callee is a declaration: nothing changes.

module {
  // CHECK-LABEL: func @declaration
  // CHECK-NOT: tf.SpaceToDepth
  // CHECK: func private @computation(tensor<2x32x32x3xf32>, tensor<3x3x3x8xf32>) -> tensor<2x16x16x8xf32>
  func.func @declaration(%it: tensor<!tf_type.resource>, %w: tensor<3x3x3x8xf32>) {
    %a = "tf.IteratorGetNext"(%it) {device = "/job:worker/replica:0/task:0/device:CPU:0"} : (tensor<!tf_type.resource>) -> tensor<2x32x32x3xf32>
    %1 = "tf_device.cluster_func"(%a, %w) {func = @computation} : (tensor<2x32x32x3xf32>, tensor<3x3x3x8xf32>) -> tensor<2x16x16x8xf32>
    func.return
  }
  func.func private @computation(tensor<2x32x32x3xf32>, tensor<3x3x3x8xf32>) -> tensor<2x16x16x8xf32>
}

// -----

// Without a tf_device.cluster_func nothing changes.

// CHECK-LABEL: func @no_cluster
// CHECK: "tf.Conv2D"{{.*}}strides = [1, 2, 2, 1]{{.*}} : (tensor<2x34x34x3xf32>, tensor<3x3x3x8xf32>) -> tensor<2x16x16x8xf32>
func.func @no_cluster(%images: tensor<2x32x32x3xf32>, %w: tensor<3x3x3x8xf32>) -> tensor<2x16x16x8xf32> {
  %paddings = "tf.Const"() {value = dense<[[0, 0], [1, 1], [1, 1], [0, 0]]> : tensor<4x2xi32>} : () -> tensor<4x2xi32>
  %padded = "tf.Pad"(%images, %paddings) : (tensor<2x32x32x3xf32>, tensor<4x2xi32>) -> tensor<2x34x34x3xf32>
  %y = "tf.Conv2D"(%padded, %w) {padding = "VALID", strides = [1, 2, 2, 1]} : (tensor<2x34x34x3xf32>, tensor<3x3x3x8xf32>) -> tensor<2x16x16x8xf32>
  func.return %y : tensor<2x16x16x8xf32>
}

// -----

// Casts between the argument and the pad take the new shape too (each keeps
// its element type); a dynamic batch size stays dynamic; the legacy device
// name /cpu:0 is a CPU; strides[3] is not looked at (TF reads only the first
// three strides).

module {
  // CHECK-LABEL: func @casts
  // CHECK: %[[S:.*]] = "tf.SpaceToDepth"(%{{.*}}) <{block_size = 2 : i64, data_format = "NHWC"}> : (tensor<?x64x64x3xui8>) -> tensor<?x32x32x12xui8>
  // CHECK-NEXT: "tf_device.cluster_func"(%[[S]], %{{.*}})
  func.func @casts(%it: tensor<!tf_type.resource>, %w: tensor<7x7x3x16xf32>) {
    %a = "tf.IteratorGetNext"(%it) {device = "/cpu:0"} : (tensor<!tf_type.resource>) -> tensor<?x64x64x3xui8>
    %1 = "tf_device.cluster_func"(%a, %w) {func = @computation} : (tensor<?x64x64x3xui8>, tensor<7x7x3x16xf32>) -> tensor<?x32x32x16xf32>
    func.return
  }
  // CHECK-LABEL: func private @computation
  // CHECK-SAME: (%[[X:.*]]: tensor<?x32x32x12xui8>, %{{.*}}: tensor<7x7x3x16xf32>) -> tensor<?x32x32x16xf32>
  // CHECK-NEXT: %[[I:.*]] = "tf.Cast"(%[[X]]) <{Truncate = false}> : (tensor<?x32x32x12xui8>) -> tensor<?x32x32x12xi32>
  // CHECK-NEXT: %[[F:.*]] = "tf.Cast"(%[[I]]) <{Truncate = false}> : (tensor<?x32x32x12xi32>) -> tensor<?x32x32x12xf32>
  // CHECK: "tf.Pad"(%[[F]], %{{.*}}) : (tensor<?x32x32x12xf32>, tensor<4x2xi32>) -> tensor<?x35x35x12xf32>
  // CHECK: "tf.Conv2D"{{.*}}strides = [1, 1, 1, 1]{{.*}} : (tensor<?x35x35x12xf32>, tensor<4x4x12x16xf32>) -> tensor<?x32x32x16xf32>
  func.func private @computation(%images: tensor<?x64x64x3xui8>, %w: tensor<7x7x3x16xf32>) -> tensor<?x32x32x16xf32> {
    %i = "tf.Cast"(%images) {Truncate = false} : (tensor<?x64x64x3xui8>) -> tensor<?x64x64x3xi32>
    %f = "tf.Cast"(%i) {Truncate = false} : (tensor<?x64x64x3xi32>) -> tensor<?x64x64x3xf32>
    %paddings = "tf.Const"() {value = dense<[[0, 0], [3, 3], [3, 3], [0, 0]]> : tensor<4x2xi32>} : () -> tensor<4x2xi32>
    %padded = "tf.Pad"(%f, %paddings) : (tensor<?x64x64x3xf32>, tensor<4x2xi32>) -> tensor<?x70x70x3xf32>
    %y = "tf.Conv2D"(%padded, %w) {padding = "VALID", strides = [1, 2, 2, 7]} : (tensor<?x70x70x3xf32>, tensor<7x7x3x16xf32>) -> tensor<?x32x32x16xf32>
    func.return %y : tensor<?x32x32x16xf32>
  }
}

// -----

// Block size 4 (a 7x7 filter pads to 8x8 and becomes 2x2x48).

module {
  // CHECK-LABEL: func @block_size_four
  // CHECK: "tf.SpaceToDepth"(%{{.*}}) <{block_size = 4 : i64, data_format = "NHWC"}> : (tensor<1x64x64x3xf32>) -> tensor<1x16x16x48xf32>
  func.func @block_size_four(%it: tensor<!tf_type.resource>, %w: tensor<7x7x3x16xf32>) {
    %a = "tf.IteratorGetNext"(%it) {device = "/job:localhost/replica:0/task:0/device:CPU:0"} : (tensor<!tf_type.resource>) -> tensor<1x64x64x3xf32>
    %1 = "tf_device.cluster_func"(%a, %w) {func = @computation} : (tensor<1x64x64x3xf32>, tensor<7x7x3x16xf32>) -> tensor<1x16x16x16xf32>
    func.return
  }
  // CHECK-LABEL: func private @computation
  // CHECK: "tf.Const"() <{value = dense<{{\[\[}}0, 0], [1, 0], [1, 0], [0, 0]]> : tensor<4x2xi32>}>
  // CHECK-NEXT: "tf.Pad"{{.*}} -> tensor<1x17x17x48xf32>
  // CHECK-NEXT: "tf.Const"() <{value = dense<{{\[\[}}1, 0], [1, 0], [0, 0], [0, 0]]> : tensor<4x2xi32>}>
  // CHECK-NEXT: "tf.Pad"{{.*}} -> tensor<8x8x3x16xf32>
  // CHECK-NEXT: "tf.Const"() <{value = dense<[2, 4, 2, 4, 3, 16]> : tensor<6xi64>}>
  // CHECK-NEXT: "tf.Reshape"{{.*}} -> tensor<2x4x2x4x3x16xf32>
  // CHECK-NEXT: "tf.Const"
  // CHECK-NEXT: "tf.Transpose"{{.*}} -> tensor<2x2x4x4x3x16xf32>
  // CHECK-NEXT: "tf.Const"() <{value = dense<[2, 2, 48, 16]> : tensor<4xi64>}>
  // CHECK-NEXT: "tf.Reshape"{{.*}} -> tensor<2x2x48x16xf32>
  // CHECK-NEXT: "tf.Conv2D"{{.*}}strides = [1, 1, 1, 1]{{.*}} : (tensor<1x17x17x48xf32>, tensor<2x2x48x16xf32>) -> tensor<1x16x16x16xf32>
  func.func private @computation(%images: tensor<1x64x64x3xf32>, %w: tensor<7x7x3x16xf32>) -> tensor<1x16x16x16xf32> {
    %paddings = "tf.Const"() {value = dense<[[0, 0], [3, 3], [3, 3], [0, 0]]> : tensor<4x2xi32>} : () -> tensor<4x2xi32>
    %padded = "tf.Pad"(%images, %paddings) : (tensor<1x64x64x3xf32>, tensor<4x2xi32>) -> tensor<1x70x70x3xf32>
    %y = "tf.Conv2D"(%padded, %w) {padding = "VALID", strides = [1, 4, 4, 1]} : (tensor<1x70x70x3xf32>, tensor<7x7x3x16xf32>) -> tensor<1x16x16x16xf32>
    func.return %y : tensor<1x16x16x16xf32>
  }
}

// -----

// Block size 3 with a 3x3 filter (no filter padding; the input padding becomes
// 0). The filter is computed in the computation (a cast): its transform ops
// come before the convolution, at the cast's location.

module {
  // CHECK-LABEL: func @block_size_three
  // CHECK: "tf.SpaceToDepth"(%{{.*}}) <{block_size = 3 : i64, data_format = "NHWC"}> : (tensor<1x225x225x3xbf16>) -> tensor<1x75x75x27xbf16>
  func.func @block_size_three(%it: tensor<!tf_type.resource>, %w: tensor<3x3x3x16xf32>) {
    %a = "tf.IteratorGetNext"(%it) {device = "/job:localhost/replica:0/task:0/device:CPU:0"} : (tensor<!tf_type.resource>) -> tensor<1x225x225x3xbf16>
    %1 = "tf_device.cluster_func"(%a, %w) {func = @computation} : (tensor<1x225x225x3xbf16>, tensor<3x3x3x16xf32>) -> tensor<1x75x75x16xbf16>
    func.return
  }
  // CHECK-LABEL: func private @computation
  // CHECK-NEXT: %[[FILTER:.*]] = "tf.Cast"
  // CHECK: "tf.Const"() <{value = dense<0> : tensor<4x2xi32>}>
  // CHECK-NEXT: %[[PADDED:.*]] = "tf.Pad"{{.*}} : (tensor<1x75x75x27xbf16>, tensor<4x2xi32>) -> tensor<1x75x75x27xbf16>
  // CHECK-NEXT: "tf.Const"() <{value = dense<[1, 3, 1, 3, 3, 16]> : tensor<6xi64>}>
  // CHECK-NEXT: "tf.Reshape"(%[[FILTER]], %{{.*}}) : (tensor<3x3x3x16xbf16>, tensor<6xi64>) -> tensor<1x3x1x3x3x16xbf16>
  // CHECK-NEXT: "tf.Const"
  // CHECK-NEXT: "tf.Transpose"{{.*}} -> tensor<1x1x3x3x3x16xbf16>
  // CHECK-NEXT: "tf.Const"() <{value = dense<[1, 1, 27, 16]> : tensor<4xi64>}>
  // CHECK-NEXT: %[[W:.*]] = "tf.Reshape"{{.*}} -> tensor<1x1x27x16xbf16>
  // CHECK-NEXT: "tf.Conv2D"(%[[PADDED]], %[[W]]) <{padding = "VALID", strides = [1, 1, 1, 1]}> : (tensor<1x75x75x27xbf16>, tensor<1x1x27x16xbf16>) -> tensor<1x75x75x16xbf16>
  func.func private @computation(%images: tensor<1x225x225x3xbf16>, %w: tensor<3x3x3x16xf32>) -> tensor<1x75x75x16xbf16> {
    %filter = "tf.Cast"(%w) : (tensor<3x3x3x16xf32>) -> tensor<3x3x3x16xbf16>
    %paddings = "tf.Const"() {value = dense<[[0, 0], [1, 1], [1, 1], [0, 0]]> : tensor<4x2xi32>} : () -> tensor<4x2xi32>
    %padded = "tf.Pad"(%images, %paddings) : (tensor<1x225x225x3xbf16>, tensor<4x2xi32>) -> tensor<1x227x227x3xbf16>
    %y = "tf.Conv2D"(%padded, %filter) {padding = "VALID", strides = [1, 3, 3, 1]} : (tensor<1x227x227x3xbf16>, tensor<3x3x3x16xbf16>) -> tensor<1x75x75x16xbf16>
    func.return %y : tensor<1x75x75x16xbf16>
  }
}

// -----

// Two filter gradients of the padded input (an 8x8 filter needs no padding).
// The new gradients carry the old ones' convolution attributes, defaults
// written out, and nothing else; the old ones stay, unused.

module {
  func.func @two_gradients(%it: tensor<!tf_type.resource>, %w: tensor<8x8x3x16xf32>) {
    %a = "tf.IteratorGetNext"(%it) {device = "/job:localhost/replica:0/task:0/device:CPU:0"} : (tensor<!tf_type.resource>) -> tensor<2x64x64x3xf32>
    %1 = "tf_device.cluster_func"(%a, %w) {func = @computation} : (tensor<2x64x64x3xf32>, tensor<8x8x3x16xf32>) -> tensor<8x8x3x16xf32>
    func.return
  }
  // CHECK-LABEL: func private @computation
  // CHECK-SAME: (%[[X:.*]]: tensor<2x32x32x12xf32>, %[[W:.*]]: tensor<8x8x3x16xf32>)
  // CHECK-NOT: "tf.Pad"(%[[W]]
  // CHECK: "tf.Reshape"(%[[W]], %{{.*}}) : (tensor<8x8x3x16xf32>, tensor<6xi64>) -> tensor<4x2x4x2x3x16xf32>
  // CHECK: %[[Y:.*]] = "tf.Conv2D"
  // CHECK-NEXT: "tf.Const"() <{value = dense<[4, 4, 12, 16]> : tensor<4xi32>}>
  // CHECK-NEXT: "tf.Conv2DBackpropFilter"{{.*}} <{data_format = "NHWC", dilations = [1, 1, 1, 1], explicit_paddings = [], padding = "VALID", strides = [1, 1, 1, 1], use_cudnn_on_gpu = true}> :
  // CHECK: %[[G1:.*]] = "tf.Slice"{{.*}} -> tensor<8x8x3x16xf32>
  // CHECK-NEXT: "tf.Conv2DBackpropFilter"{{.*}} <{padding = "VALID", strides = [1, 2, 2, 1]}> : (tensor<2x35x35x12xf32>
  // CHECK-NEXT: "tf.Const"() <{value = dense<[4, 4, 12, 16]> : tensor<4xi32>}>
  // CHECK-NEXT: "tf.Conv2DBackpropFilter"{{.*}} <{data_format = "NHWC", dilations = [1, 1, 1, 1], explicit_paddings = [], padding = "SAME", strides = [1, 1, 1, 1], use_cudnn_on_gpu = false}> :
  // CHECK: %[[G2:.*]] = "tf.Slice"{{.*}} -> tensor<8x8x3x16xf32>
  // CHECK-NEXT: "tf.Conv2DBackpropFilter"{{.*}} <{padding = "SAME", strides = [1, 2, 2, 1], use_cudnn_on_gpu = false}> {device = "/device:TPU_REPLICATED_CORE:0"}
  // CHECK-NEXT: "tf.AddV2"(%[[G1]], %[[G2]])
  func.func private @computation(%images: tensor<2x64x64x3xf32>, %w: tensor<8x8x3x16xf32>) -> tensor<8x8x3x16xf32> {
    %paddings = "tf.Const"() {value = dense<[[0, 0], [3, 4], [3, 4], [0, 0]]> : tensor<4x2xi32>} : () -> tensor<4x2xi32>
    %sizes = "tf.Const"() {value = dense<[8, 8, 3, 16]> : tensor<4xi32>} : () -> tensor<4xi32>
    %padded = "tf.Pad"(%images, %paddings) : (tensor<2x64x64x3xf32>, tensor<4x2xi32>) -> tensor<2x71x71x3xf32>
    %y = "tf.Conv2D"(%padded, %w) {padding = "VALID", strides = [1, 2, 2, 1]} : (tensor<2x71x71x3xf32>, tensor<8x8x3x16xf32>) -> tensor<2x32x32x16xf32>
    %g1 = "tf.Conv2DBackpropFilter"(%padded, %sizes, %y) {padding = "VALID", strides = [1, 2, 2, 1]} : (tensor<2x71x71x3xf32>, tensor<4xi32>, tensor<2x32x32x16xf32>) -> tensor<8x8x3x16xf32>
    %g2 = "tf.Conv2DBackpropFilter"(%padded, %sizes, %y) {padding = "SAME", strides = [1, 2, 2, 1], use_cudnn_on_gpu = false, device = "/device:TPU_REPLICATED_CORE:0"} : (tensor<2x71x71x3xf32>, tensor<4xi32>, tensor<2x32x32x16xf32>) -> tensor<8x8x3x16xf32>
    %sum = "tf.AddV2"(%g1, %g2) : (tensor<8x8x3x16xf32>, tensor<8x8x3x16xf32>) -> tensor<8x8x3x16xf32>
    func.return %sum : tensor<8x8x3x16xf32>
  }
}

// -----

// An unranked filter: the host input is transformed, the computation is not
// (as TF).

module {
  // CHECK-LABEL: func @unranked_filter
  // CHECK: %[[S:.*]] = "tf.SpaceToDepth"
  // CHECK-NEXT: "tf_device.cluster_func"(%[[S]], %{{.*}}) <{func = @computation}> : (tensor<2x16x16x12xf32>, tensor<*xf32>)
  func.func @unranked_filter(%it: tensor<!tf_type.resource>, %w: tensor<*xf32>) {
    %a = "tf.IteratorGetNext"(%it) {device = "/job:localhost/replica:0/task:0/device:CPU:0"} : (tensor<!tf_type.resource>) -> tensor<2x32x32x3xf32>
    %1 = "tf_device.cluster_func"(%a, %w) {func = @computation} : (tensor<2x32x32x3xf32>, tensor<*xf32>) -> tensor<2x16x16x8xf32>
    func.return
  }
  // CHECK-LABEL: func private @computation
  // CHECK-SAME: (%{{.*}}: tensor<2x32x32x3xf32>, %{{.*}}: tensor<*xf32>)
  // CHECK: "tf.Conv2D"{{.*}}strides = [1, 2, 2, 1]{{.*}} : (tensor<2x34x34x3xf32>, tensor<*xf32>) -> tensor<2x16x16x8xf32>
  func.func private @computation(%images: tensor<2x32x32x3xf32>, %w: tensor<*xf32>) -> tensor<2x16x16x8xf32> {
    %paddings = "tf.Const"() {value = dense<[[0, 0], [1, 1], [1, 1], [0, 0]]> : tensor<4x2xi32>} : () -> tensor<4x2xi32>
    %padded = "tf.Pad"(%images, %paddings) : (tensor<2x32x32x3xf32>, tensor<4x2xi32>) -> tensor<2x34x34x3xf32>
    %y = "tf.Conv2D"(%padded, %w) {padding = "VALID", strides = [1, 2, 2, 1]} : (tensor<2x34x34x3xf32>, tensor<*xf32>) -> tensor<2x16x16x8xf32>
    func.return %y : tensor<2x16x16x8xf32>
  }
}

// -----

// A pad of an unranked value: the host input is transformed, the computation
// is not. Only the first cluster_func is looked at: the second, calling the
// same function, keeps its operand.

module {
  // CHECK-LABEL: func @unranked_pad_input
  // CHECK: %[[A:.*]] = "tf.IteratorGetNext"
  // CHECK-NEXT: %[[S:.*]] = "tf.SpaceToDepth"(%[[A]])
  // CHECK-NEXT: "tf_device.cluster_func"(%[[S]], %{{.*}})
  // CHECK-NEXT: "tf_device.cluster_func"(%[[A]], %{{.*}})
  func.func @unranked_pad_input(%it: tensor<!tf_type.resource>, %w: tensor<3x3x3x8xf32>) {
    %a = "tf.IteratorGetNext"(%it) {device = "/job:localhost/replica:0/task:0/device:CPU:0"} : (tensor<!tf_type.resource>) -> tensor<2x32x32x3xf32>
    %1 = "tf_device.cluster_func"(%a, %w) {func = @computation} : (tensor<2x32x32x3xf32>, tensor<3x3x3x8xf32>) -> tensor<2x16x16x8xf32>
    %2 = "tf_device.cluster_func"(%a, %w) {func = @computation} : (tensor<2x32x32x3xf32>, tensor<3x3x3x8xf32>) -> tensor<2x16x16x8xf32>
    func.return
  }
  // CHECK-LABEL: func private @computation
  // CHECK-SAME: (%{{.*}}: tensor<2x32x32x3xf32>, %{{.*}}: tensor<3x3x3x8xf32>)
  // CHECK: "tf.Conv2D"{{.*}}strides = [1, 2, 2, 1]{{.*}} : (tensor<2x34x34x3xf32>, tensor<3x3x3x8xf32>) -> tensor<2x16x16x8xf32>
  func.func private @computation(%images: tensor<2x32x32x3xf32>, %w: tensor<3x3x3x8xf32>) -> tensor<2x16x16x8xf32> {
    %paddings = "tf.Const"() {value = dense<[[0, 0], [1, 1], [1, 1], [0, 0]]> : tensor<4x2xi32>} : () -> tensor<4x2xi32>
    %u = "tf.Cast"(%images) : (tensor<2x32x32x3xf32>) -> tensor<*xf32>
    %padded = "tf.Pad"(%u, %paddings) : (tensor<*xf32>, tensor<4x2xi32>) -> tensor<2x34x34x3xf32>
    %y = "tf.Conv2D"(%padded, %w) {padding = "VALID", strides = [1, 2, 2, 1]} : (tensor<2x34x34x3xf32>, tensor<3x3x3x8xf32>) -> tensor<2x16x16x8xf32>
    func.return %y : tensor<2x16x16x8xf32>
  }
}

// -----

// TF matches a replicated block argument by its number, not by the operand's
// position: the callee's argument 0 is rewritten, and so is the replicate's
// block argument 0, which feeds operand 1 here.

module {
  // CHECK-LABEL: func @replicate_argument_number
  // CHECK: tf_device.replicate([%{{.*}}, %{{.*}}] as %[[I:.*]]: tensor<2x16x16x12xf32>, [%{{.*}}, %{{.*}}] as %[[O:.*]]: tensor<2x32x32x3xf32>)
  // CHECK-NEXT: "tf_device.cluster_func"(%[[O]], %[[I]], %{{.*}}) <{func = @computation}> : (tensor<2x32x32x3xf32>, tensor<2x16x16x12xf32>, tensor<3x3x3x8xf32>)
  func.func @replicate_argument_number(%it0: tensor<!tf_type.resource>, %it1: tensor<!tf_type.resource>, %w: tensor<3x3x3x8xf32>, %x: tensor<2x32x32x3xf32>) {
    %a = "tf.IteratorGetNext"(%it0) {device = "/job:worker/replica:0/task:0/device:CPU:0"} : (tensor<!tf_type.resource>) -> tensor<2x32x32x3xf32>
    %b = "tf.IteratorGetNext"(%it1) {device = "/job:worker/replica:0/task:0/device:CPU:0"} : (tensor<!tf_type.resource>) -> tensor<2x32x32x3xf32>
    tf_device.replicate([%a, %b] as %images: tensor<2x32x32x3xf32>, [%x, %x] as %other: tensor<2x32x32x3xf32>) {n = 2 : i32, devices = {TPU_REPLICATED_CORE_0 = ["/job:worker/replica:0/task:0/device:TPU:0", "/job:worker/replica:0/task:0/device:TPU:1"]}} {
      %1 = "tf_device.cluster_func"(%other, %images, %w) {func = @computation} : (tensor<2x32x32x3xf32>, tensor<2x32x32x3xf32>, tensor<3x3x3x8xf32>) -> tensor<2x16x16x8xf32>
      tf_device.return
    }
    func.return
  }
  // CHECK-LABEL: func private @computation
  // CHECK-SAME: (%{{.*}}: tensor<2x16x16x12xf32>, %{{.*}}: tensor<2x32x32x3xf32>, %{{.*}}: tensor<3x3x3x8xf32>)
  func.func private @computation(%images: tensor<2x32x32x3xf32>, %unused: tensor<2x32x32x3xf32>, %w: tensor<3x3x3x8xf32>) -> tensor<2x16x16x8xf32> {
    %paddings = "tf.Const"() {value = dense<[[0, 0], [1, 1], [1, 1], [0, 0]]> : tensor<4x2xi32>} : () -> tensor<4x2xi32>
    %padded = "tf.Pad"(%images, %paddings) : (tensor<2x32x32x3xf32>, tensor<4x2xi32>) -> tensor<2x34x34x3xf32>
    %y = "tf.Conv2D"(%padded, %w) {padding = "VALID", strides = [1, 2, 2, 1]} : (tensor<2x34x34x3xf32>, tensor<3x3x3x8xf32>) -> tensor<2x16x16x8xf32>
    func.return %y : tensor<2x16x16x8xf32>
  }
}

// -----

// A dynamic channel count counts as 0 channels and becomes 0 after the
// rewrite (TF's 64-bit arithmetic on the dynamic size).

module {
  // CHECK-LABEL: func @dynamic_channels
  // CHECK: "tf.SpaceToDepth"(%{{.*}}) <{block_size = 2 : i64, data_format = "NHWC"}> : (tensor<2x32x32x?xf32>) -> tensor<2x16x16x0xf32>
  func.func @dynamic_channels(%it: tensor<!tf_type.resource>, %w: tensor<3x3x3x8xf32>) {
    %a = "tf.IteratorGetNext"(%it) {device = "/job:localhost/replica:0/task:0/device:CPU:0"} : (tensor<!tf_type.resource>) -> tensor<2x32x32x?xf32>
    %1 = "tf_device.cluster_func"(%a, %w) {func = @computation} : (tensor<2x32x32x?xf32>, tensor<3x3x3x8xf32>) -> tensor<2x16x16x8xf32>
    func.return
  }
  // CHECK-LABEL: func private @computation
  // CHECK-SAME: (%{{.*}}: tensor<2x16x16x0xf32>, %{{.*}}: tensor<3x3x3x8xf32>)
  // CHECK: "tf.Conv2D"{{.*}} : (tensor<2x17x17x0xf32>, tensor<2x2x12x8xf32>) -> tensor<2x16x16x8xf32>
  func.func private @computation(%images: tensor<2x32x32x?xf32>, %w: tensor<3x3x3x8xf32>) -> tensor<2x16x16x8xf32> {
    %paddings = "tf.Const"() {value = dense<[[0, 0], [1, 1], [1, 1], [0, 0]]> : tensor<4x2xi32>} : () -> tensor<4x2xi32>
    %padded = "tf.Pad"(%images, %paddings) : (tensor<2x32x32x?xf32>, tensor<4x2xi32>) -> tensor<2x34x34x?xf32>
    %y = "tf.Conv2D"(%padded, %w) {padding = "VALID", strides = [1, 2, 2, 1]} : (tensor<2x34x34x?xf32>, tensor<3x3x3x8xf32>) -> tensor<2x16x16x8xf32>
    func.return %y : tensor<2x16x16x8xf32>
  }
}

// -----

// A packed replicated input (one operand for all replicas) is transformed
// too.

module {
  // CHECK-LABEL: func @packed_input
  // CHECK: %[[A:.*]] = "tf.IteratorGetNext"
  // CHECK-NEXT: %[[S:.*]] = "tf.SpaceToDepth"(%[[A]]) <{block_size = 2 : i64, data_format = "NHWC"}> : (tensor<2x32x32x3xf32>) -> tensor<2x16x16x12xf32>
  // CHECK-NEXT: tf_device.replicate(%[[S]] as %[[I:.*]]: tensor<2x16x16x12xf32>)
  // CHECK-NEXT: "tf_device.cluster_func"(%[[I]], %{{.*}}) <{func = @computation}> : (tensor<2x16x16x12xf32>, tensor<3x3x3x8xf32>)
  func.func @packed_input(%it: tensor<!tf_type.resource>, %w: tensor<3x3x3x8xf32>) {
    %a = "tf.IteratorGetNext"(%it) {device = "/job:worker/replica:0/task:0/device:CPU:0"} : (tensor<!tf_type.resource>) -> tensor<2x32x32x3xf32>
    tf_device.replicate(%a as %images: tensor<2x32x32x3xf32>) {n = 2 : i32, devices = {TPU_REPLICATED_CORE_0 = ["/job:worker/replica:0/task:0/device:TPU:0", "/job:worker/replica:0/task:0/device:TPU:1"]}} {
      %1 = "tf_device.cluster_func"(%images, %w) {func = @computation} : (tensor<2x32x32x3xf32>, tensor<3x3x3x8xf32>) -> tensor<2x16x16x8xf32>
      tf_device.return
    }
    func.return
  }
  // CHECK-LABEL: func private @computation
  // CHECK-SAME: (%{{.*}}: tensor<2x16x16x12xf32>, %{{.*}}: tensor<3x3x3x8xf32>)
  func.func private @computation(%images: tensor<2x32x32x3xf32>, %w: tensor<3x3x3x8xf32>) -> tensor<2x16x16x8xf32> {
    %paddings = "tf.Const"() {value = dense<[[0, 0], [1, 1], [1, 1], [0, 0]]> : tensor<4x2xi32>} : () -> tensor<4x2xi32>
    %padded = "tf.Pad"(%images, %paddings) : (tensor<2x32x32x3xf32>, tensor<4x2xi32>) -> tensor<2x34x34x3xf32>
    %y = "tf.Conv2D"(%padded, %w) {padding = "VALID", strides = [1, 2, 2, 1]} : (tensor<2x34x34x3xf32>, tensor<3x3x3x8xf32>) -> tensor<2x16x16x8xf32>
    func.return %y : tensor<2x16x16x8xf32>
  }
}

// -----

// Two pads after a cast: only the pad feeding the convolution is rewritten;
// the other pad's result takes the new shape, its input and the argument
// keep theirs (as TF: the host input then differs from the argument). The
// convolution in a tf.IfRegion of the cluster_func in a nested module is found
// too.

module {
  module @inner {
    // CHECK-LABEL: func @two_pads
    // CHECK: %[[S:.*]] = "tf.SpaceToDepth"
    // CHECK-NEXT: "tf_device.cluster_func"(%[[S]], %{{.*}}, %{{.*}}) <{func = @computation}> : (tensor<2x16x16x12xf32>, tensor<3x3x3x8xf32>, tensor<i1>)
    func.func @two_pads(%it: tensor<!tf_type.resource>, %w: tensor<3x3x3x8xf32>, %c: tensor<i1>) {
      %a = "tf.IteratorGetNext"(%it) {device = "/job:worker/replica:0/task:0/device:CPU:0"} : (tensor<!tf_type.resource>) -> tensor<2x32x32x3xf32>
      %1 = "tf_device.cluster_func"(%a, %w, %c) {func = @computation} : (tensor<2x32x32x3xf32>, tensor<3x3x3x8xf32>, tensor<i1>) -> tensor<2x16x16x8xf16>
      func.return
    }
    // CHECK-LABEL: func private @computation
    // CHECK-SAME: (%[[X:.*]]: tensor<2x32x32x3xf32>, %{{.*}}: tensor<3x3x3x8xf32>, %{{.*}}: tensor<i1>)
    // CHECK: %[[F:.*]] = "tf.Cast"(%[[X]]) : (tensor<2x32x32x3xf32>) -> tensor<2x32x32x3xf16>
    // CHECK: %[[P1:.*]] = "tf.Pad"(%[[F]], %{{.*}}) : (tensor<2x32x32x3xf16>, tensor<4x2xi32>) -> tensor<2x16x16x12xf16>
    // CHECK: %[[P2:.*]] = "tf.Pad"(%[[P1]], %{{.*}}) : (tensor<2x16x16x12xf16>, tensor<4x2xi32>) -> tensor<2x17x17x12xf16>
    // CHECK: "tf.IfRegion"
    // CHECK: "tf.Conv2D"(%[[P2]], %{{.*}}) <{padding = "VALID", strides = [1, 1, 1, 1]}> : (tensor<2x17x17x12xf16>, tensor<2x2x12x8xf16>) -> tensor<2x16x16x8xf16>
    func.func private @computation(%images: tensor<2x32x32x3xf32>, %w: tensor<3x3x3x8xf32>, %c: tensor<i1>) -> tensor<2x16x16x8xf16> {
      %p1c = "tf.Const"() {value = dense<[[0, 0], [1, 0], [1, 0], [0, 0]]> : tensor<4x2xi32>} : () -> tensor<4x2xi32>
      %p2c = "tf.Const"() {value = dense<[[0, 0], [0, 1], [0, 1], [0, 0]]> : tensor<4x2xi32>} : () -> tensor<4x2xi32>
      %f = "tf.Cast"(%images) : (tensor<2x32x32x3xf32>) -> tensor<2x32x32x3xf16>
      %p1 = "tf.Pad"(%f, %p1c) : (tensor<2x32x32x3xf16>, tensor<4x2xi32>) -> tensor<2x33x33x3xf16>
      %p2 = "tf.Pad"(%p1, %p2c) : (tensor<2x33x33x3xf16>, tensor<4x2xi32>) -> tensor<2x34x34x3xf16>
      %r = "tf.IfRegion"(%c) ({
        %wh = "tf.Cast"(%w) : (tensor<3x3x3x8xf32>) -> tensor<3x3x3x8xf16>
        %y = "tf.Conv2D"(%p2, %wh) {padding = "VALID", strides = [1, 2, 2, 1]} : (tensor<2x34x34x3xf16>, tensor<3x3x3x8xf16>) -> tensor<2x16x16x8xf16>
        "tf.Yield"(%y) : (tensor<2x16x16x8xf16>) -> ()
      }, {
        %z = "tf.Const"() {value = dense<0.0> : tensor<2x16x16x8xf16>} : () -> tensor<2x16x16x8xf16>
        "tf.Yield"(%z) : (tensor<2x16x16x8xf16>) -> ()
      }) {is_stateless = true} : (tensor<i1>) -> tensor<2x16x16x8xf16>
      func.return %r : tensor<2x16x16x8xf16>
    }
  }
}
