
module {
  module @inner {
    func.func @main(%a: tensor<5xf32>) {
      %0 = "tf_device.launch"() ({
        %1 = "tf.TPUAnnotateTensorsWithDynamicShape"(%a) : (tensor<5xf32>) -> tensor<5xf32>
        tf_device.return %1 : tensor<5xf32>
      }) {} : () -> tensor<5xf32>
      "tf_device.cluster_func"(%0) {_replication_info = "c", func = @f} : (tensor<5xf32>) -> ()
      func.return
    }
    func.func @f(%a: tensor<5xf32>) {
      func.return
    }
  }
  func.func @f(%a: tensor<5xf32>) {
    func.return
  }
}