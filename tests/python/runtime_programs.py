"""Hand-written bridged programs (TensorFlow's form after tf-tpu-rewrite) for the runtime tests.

Each builder returns MLIR text of a host module whose ``main`` compiles one
device program with ``tf._TPUCompileMlir`` and runs it with ``tf.TPUExecute``
(or ``TPUExecuteAndUpdateVariables``), in the shapes TensorFlow's bridge
gives them: launches on the host CPU and the TPU, ``tf_device.parallel_execute``
with host launches for outside compilation, ``tf_device.replicate`` for
replicas. The device programs are tf-dialect modules embedded as strings.
"""

CPU = "/job:localhost/replica:0/task:0/device:CPU:0"
TPU = "/job:localhost/replica:0/task:0/device:TPU:0"
KEY = "tensor<3x!tf_type.string>"
STATUS = "tensor<!tf_type.string>"


def embed(text):
    """`text` as the contents of an MLIR string attribute."""
    return text.replace("\\", "\\5C").replace('"', "\\22").replace("\n", "\\0A")


def device_module(body):
    return "module attributes {tf.versions = {producer = 888 : i32}} {\n" + body + "\n}"


def compile_ops(device_text, metadata=""):
    """The compile launch and its assert: defines %compile#0 (status) and %compile#1 (key)."""
    return f'''    %compile:2 = "tf_device.launch"() ({{
      %s, %k = "tf._TPUCompileMlir"() {{metadata = "{metadata}", mlir_module = "{embed(device_text)}"}} : () -> ({STATUS}, {KEY})
      tf_device.return %s, %k : {STATUS}, {KEY}
    }}) {{device = "{CPU}"}} : () -> ({STATUS}, {KEY})
    "tf_device.launch"() ({{
      "tf.TPUCompileSucceededAssert"(%compile#0) : ({STATUS}) -> ()
      tf_device.return
    }}) {{device = "{CPU}"}} : () -> ()
'''


def host_module(signature, body, entry=None, result_types=""):
    attrs = ""
    if entry:
        attrs = f' attributes {{tf.entry_function = {{inputs = "{entry[0]}", outputs = "{entry[1]}"}}}}'
    return f'''module attributes {{tf.versions = {{producer = 888 : i32}}}} {{
  func.func @main({signature}){result_types}{attrs} {{
{body}  }}
}}
'''


# --- single cluster, no outside compilation -----------------------------------------------------------
DENSE_DEVICE = device_module('''  func.func @main(%x: tensor<4x3xf32>, %w: tensor<3x5xf32>, %b: tensor<5xf32>) -> tensor<4x5xf32> {
    %0 = "tf.MatMul"(%x, %w) {transpose_a = false, transpose_b = false} : (tensor<4x3xf32>, tensor<3x5xf32>) -> tensor<4x5xf32>
    %1 = "tf.BiasAdd"(%0, %b) {data_format = "NHWC"} : (tensor<4x5xf32>, tensor<5xf32>) -> tensor<4x5xf32>
    %2 = "tf.Tanh"(%1) : (tensor<4x5xf32>) -> tensor<4x5xf32>
    func.return %2 : tensor<4x5xf32>
  }''')


def dense():
    body = compile_ops(DENSE_DEVICE) + f'''    %r = "tf_device.launch"() ({{
      %e = "tf.TPUExecute"(%x, %w, %b, %compile#1) : (tensor<4x3xf32>, tensor<3x5xf32>, tensor<5xf32>, {KEY}) -> tensor<4x5xf32>
      tf_device.return %e : tensor<4x5xf32>
    }}) {{device = "{TPU}"}} : () -> tensor<4x5xf32>
    func.return %r : tensor<4x5xf32>
'''
    return host_module("%x: tensor<4x3xf32>, %w: tensor<3x5xf32>, %b: tensor<5xf32>", body, ("x,w,b", "y"),
                       " -> tensor<4x5xf32>")


# --- head and tail host computations (tf_executor form) ------------------------------------------------
SCALE_DEVICE = device_module('''  func.func @main(%x: tensor<3xf32>) -> tensor<3xf32> {
    %c = "tf.Const"() {value = dense<2.5> : tensor<f32>} : () -> tensor<f32>
    %0 = "tf.Mul"(%x, %c) : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
    %1 = "tf.Sqrt"(%0) : (tensor<3xf32>) -> tensor<3xf32>
    func.return %1 : tensor<3xf32>
  }''')


def head_tail():
    """Strings parsed on the host (head), the device computes, the result printed on the host (tail)."""
    body = f'''    %out:2 = tf_executor.graph {{
      %head, %hc = tf_executor.island {{
        %n = "tf_device.launch"() ({{
          %p = "tf.StringToNumber"(%text) {{out_type = f32}} : (tensor<3x!tf_type.string>) -> tensor<3xf32> loc("parse")
          tf_device.return %p : tensor<3xf32>
        }}) {{device = "{CPU}"}} : () -> tensor<3xf32>
        tf_executor.yield %n : tensor<3xf32>
      }}
      %res, %rc = tf_executor.island {{
{_indent(compile_ops(SCALE_DEVICE), 4)}        %r = "tf_device.launch"() ({{
          %e = "tf.TPUExecute"(%head, %compile#1) : (tensor<3xf32>, {KEY}) -> tensor<3xf32>
          tf_device.return %e : tensor<3xf32>
        }}) {{device = "{TPU}"}} : () -> tensor<3xf32>
        tf_executor.yield %r : tensor<3xf32>
      }}
      %tail, %tc = tf_executor.island {{
        %t = "tf_device.launch"() ({{
          %s = "tf.AsString"(%res) {{precision = 3 : i64}} : (tensor<3xf32>) -> tensor<3x!tf_type.string> loc("print")
          tf_device.return %s : tensor<3x!tf_type.string>
        }}) {{device = "{CPU}"}} : () -> tensor<3x!tf_type.string>
        tf_executor.yield %t : tensor<3x!tf_type.string>
      }}
      tf_executor.fetch %tail, %res : tensor<3x!tf_type.string>, tensor<3xf32>
    }}
    func.return %out#0, %out#1 : tensor<3x!tf_type.string>, tensor<3xf32>
'''
    return host_module("%text: tensor<3x!tf_type.string>", body, ("text", "printed,value"),
                       " -> (tensor<3x!tf_type.string>, tensor<3xf32>)")


def _indent(text, n):
    return "".join(" " * n + line + "\n" if line else "\n" for line in text.splitlines())


# --- a host computation in the middle ------------------------------------------------------------------
MIDDLE_DEVICE = device_module('''  func.func @main(%x: tensor<3xf32>) -> tensor<3xf32> {
    %0 = "tf.Neg"(%x) : (tensor<3xf32>) -> tensor<3xf32>
    %1 = "tf._XlaHostComputeMlir"(%0, %x) {send_key = "host_compute_channel_0_args", recv_key = "host_compute_channel_0_retvals", host_mlir_module = ""} : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32> loc("outside")
    %2 = "tf.Mul"(%1, %x) : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
    func.return %2 : tensor<3xf32>
  }''')


def middle(send_type="tensor<3xf32>", convert=""):
    """Device: -x -> host: exp(number(string(-x)) * x) -> device: * x. `convert` may cast what the
    host sends (to test type checks)."""
    sent = "%e"
    if convert:
        convert = f'''          %cv = "tf.Cast"(%e) : (tensor<3xf32>) -> {send_type}\n'''
        sent = "%cv"
    host = f'''          %a:2 = "tf._XlaRecvAtHost"(%compile#1) {{key = "host_compute_channel_0_args", device_ordinal = 0 : i64}} : ({KEY}) -> (tensor<3xf32>, tensor<3xf32>)
          %s = "tf.AsString"(%a#0) : (tensor<3xf32>) -> tensor<3x!tf_type.string>
          %n = "tf.StringToNumber"(%s) {{out_type = f32}} : (tensor<3x!tf_type.string>) -> tensor<3xf32>
          %sum = "tf.Mul"(%n, %a#1) : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
          %e = "tf.Exp"(%sum) : (tensor<3xf32>) -> tensor<3xf32>
{convert}          "tf._XlaSendFromHost"({sent}, %compile#1) {{key = "host_compute_channel_0_retvals", device_ordinal = 0 : i64}} : ({send_type}, {KEY}) -> ()
'''
    body = compile_ops(MIDDLE_DEVICE) + f'''    %r = "tf_device.parallel_execute"() ({{
      "tf_device.launch"() ({{
{host}          tf_device.return
      }}) {{device = "{CPU}"}} : () -> ()
      tf_device.return
    }}, {{
      %d = "tf_device.launch"() ({{
        %e = "tf.TPUExecute"(%x, %compile#1) : (tensor<3xf32>, {KEY}) -> tensor<3xf32>
        tf_device.return %e : tensor<3xf32>
      }}) {{device = "{TPU}"}} : () -> tensor<3xf32>
      tf_device.return %d : tensor<3xf32>
    }}) : () -> tensor<3xf32>
    func.return %r : tensor<3xf32>
'''
    return host_module("%x: tensor<3xf32>", body, ("x", "y"), " -> tensor<3xf32>")


def _parallel(host_ops, device_call, device_types):
    """parallel_execute: one host launch, one device launch whose results are the op's results."""
    return f'''    %r:{len(device_types)} = "tf_device.parallel_execute"() ({{
      "tf_device.launch"() ({{
{host_ops}          tf_device.return
      }}) {{device = "{CPU}"}} : () -> ()
      tf_device.return
    }}, {{
      %d:{len(device_types)} = "tf_device.launch"() ({{
        %e:{len(device_types)} = {device_call}
        tf_device.return {", ".join(f"%e#{i}" for i in range(len(device_types)))} : {", ".join(device_types)}
      }}) {{device = "{TPU}"}} : () -> ({", ".join(device_types)})
      tf_device.return {", ".join(f"%d#{i}" for i in range(len(device_types)))} : {", ".join(device_types)}
    }}) : () -> ({", ".join(device_types)})
'''


# --- host computation inside a device while loop and a device conditional ----------------------------------
LOOP_DEVICE = device_module('''  func.func @main(%x: tensor<3xf32>, %n: tensor<i32>) -> (tensor<3xf32>, tensor<i32>) {
    %zero = "tf.Const"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
    %one = "tf.Const"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
    %r:2 = "tf.WhileRegion"(%x, %zero) ({
    ^bb0(%acc: tensor<3xf32>, %i: tensor<i32>):
      %p = "tf.Less"(%i, %n) : (tensor<i32>, tensor<i32>) -> tensor<i1>
      "tf.XlaSendToHost"(%p) {key = "while_condition_channel_0", Tinput = i1} : (tensor<i1>) -> ()
      "tf.Yield"(%p) : (tensor<i1>) -> ()
    }, {
    ^bb0(%acc: tensor<3xf32>, %i: tensor<i32>):
      %h = "tf._XlaHostComputeMlir"(%acc, %i) {send_key = "host_compute_channel_1_args", recv_key = "host_compute_channel_1_retvals", host_mlir_module = ""} : (tensor<3xf32>, tensor<i32>) -> tensor<3xf32>
      %a = "tf.AddV2"(%acc, %h) : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
      %j = "tf.AddV2"(%i, %one) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "tf.Yield"(%a, %j) : (tensor<3xf32>, tensor<i32>) -> ()
    }) {is_stateless = false} : (tensor<3xf32>, tensor<i32>) -> (tensor<3xf32>, tensor<i32>)
    func.return %r#0, %r#1 : tensor<3xf32>, tensor<i32>
  }''')


def loop():
    """acc <- acc + host(acc, i) while i < n; host(acc, i) = number(string(acc)) * 0.5 + i."""
    host = f'''          %z = "tf.Const"() {{value = dense<0> : tensor<i32>}} : () -> tensor<i32>
          %w = "tf.WhileRegion"(%z) ({{
          ^bb0(%c: tensor<i32>):
            %p = "tf._XlaRecvAtHost"(%compile#1) {{key = "while_condition_channel_0", device_ordinal = 0 : i64}} : ({KEY}) -> tensor<i1>
            "tf.Yield"(%p) : (tensor<i1>) -> ()
          }}, {{
          ^bb0(%c: tensor<i32>):
            %a:2 = "tf._XlaRecvAtHost"(%compile#1) {{key = "host_compute_channel_1_args", device_ordinal = 0 : i64}} : ({KEY}) -> (tensor<3xf32>, tensor<i32>)
            %s = "tf.AsString"(%a#0) : (tensor<3xf32>) -> tensor<3x!tf_type.string>
            %v = "tf.StringToNumber"(%s) {{out_type = f32}} : (tensor<3x!tf_type.string>) -> tensor<3xf32>
            %half = "tf.Const"() {{value = dense<0.5> : tensor<f32>}} : () -> tensor<f32>
            %m = "tf.Mul"(%v, %half) : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
            %fi = "tf.Cast"(%a#1) : (tensor<i32>) -> tensor<f32>
            %o = "tf.AddV2"(%m, %fi) : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
            "tf._XlaSendFromHost"(%o, %compile#1) {{key = "host_compute_channel_1_retvals", device_ordinal = 0 : i64}} : (tensor<3xf32>, {KEY}) -> ()
            %one = "tf.Const"() {{value = dense<1> : tensor<i32>}} : () -> tensor<i32>
            %c1 = "tf.AddV2"(%c, %one) : (tensor<i32>, tensor<i32>) -> tensor<i32>
            "tf.Yield"(%c1) : (tensor<i32>) -> ()
          }}) {{is_stateless = false}} : (tensor<i32>) -> tensor<i32>
'''
    call = f'"tf.TPUExecute"(%x, %n, %compile#1) : (tensor<3xf32>, tensor<i32>, {KEY}) -> (tensor<3xf32>, tensor<i32>)'
    body = compile_ops(LOOP_DEVICE) + _parallel(host, call, ["tensor<3xf32>", "tensor<i32>"]) + \
        "    func.return %r#0, %r#1 : tensor<3xf32>, tensor<i32>\n"
    return host_module("%x: tensor<3xf32>, %n: tensor<i32>", body, ("x,n", "acc,count"),
                       " -> (tensor<3xf32>, tensor<i32>)")


COND_DEVICE = device_module('''  func.func @main(%x: tensor<3xf32>) -> tensor<3xf32> {
    %zero = "tf.Const"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
    %s = "tf.Sum"(%x, %axis) {keep_dims = false} : (tensor<3xf32>, tensor<1xi32>) -> tensor<f32>
    %p = "tf.Greater"(%s, %zero) : (tensor<f32>, tensor<f32>) -> tensor<i1>
    "tf.XlaSendToHost"(%p) {key = "if_predicate_channel_0", Tinput = i1} : (tensor<i1>) -> ()
    %r = "tf.IfRegion"(%p) ({
      %h = "tf._XlaHostComputeMlir"(%x) {send_key = "host_compute_channel_2_args", recv_key = "host_compute_channel_2_retvals", host_mlir_module = ""} : (tensor<3xf32>) -> tensor<3xf32>
      "tf.Yield"(%h) : (tensor<3xf32>) -> ()
    }, {
      %n = "tf.Neg"(%x) : (tensor<3xf32>) -> tensor<3xf32>
      "tf.Yield"(%n) : (tensor<3xf32>) -> ()
    }) {is_stateless = false} : (tensor<i1>) -> tensor<3xf32>
    func.return %r : tensor<3xf32>
  }''').replace('%s = "tf.Sum"', '%axis = "tf.Const"() {value = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>\n    %s = "tf.Sum"')


def conditional():
    """sum(x) > 0 ? host(x) = number(string(x)) ** 2 : -x."""
    host = f'''          %p = "tf._XlaRecvAtHost"(%compile#1) {{key = "if_predicate_channel_0", device_ordinal = 0 : i64}} : ({KEY}) -> tensor<i1>
          "tf.IfRegion"(%p) ({{
            %a = "tf._XlaRecvAtHost"(%compile#1) {{key = "host_compute_channel_2_args", device_ordinal = 0 : i64}} : ({KEY}) -> tensor<3xf32>
            %s = "tf.AsString"(%a) : (tensor<3xf32>) -> tensor<3x!tf_type.string>
            %v = "tf.StringToNumber"(%s) {{out_type = f32}} : (tensor<3x!tf_type.string>) -> tensor<3xf32>
            %q = "tf.Square"(%v) : (tensor<3xf32>) -> tensor<3xf32>
            "tf._XlaSendFromHost"(%q, %compile#1) {{key = "host_compute_channel_2_retvals", device_ordinal = 0 : i64}} : (tensor<3xf32>, {KEY}) -> ()
            "tf.Yield"() : () -> ()
          }}, {{
            "tf.Yield"() : () -> ()
          }}) {{is_stateless = false}} : (tensor<i1>) -> ()
'''
    call = f'"tf.TPUExecute"(%x, %compile#1) : (tensor<3xf32>, {KEY}) -> tensor<3xf32>'
    body = compile_ops(COND_DEVICE) + _parallel(host, call, ["tensor<3xf32>"]) + \
        "    func.return %r#0 : tensor<3xf32>\n"
    return host_module("%x: tensor<3xf32>", body, ("x", "y"), " -> tensor<3xf32>")


# --- send-only and receive-only host computations -------------------------------------------------------
SEND_RECV_DEVICE = device_module('''  func.func @main(%x: tensor<3xf32>) -> tensor<3xf32> {
    %d = "tf.Mul"(%x, %x) : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
    "tf.XlaSendToHost"(%d) {key = "send_only_0", Tinput = f32} : (tensor<3xf32>) -> ()
    %h = "tf.XlaRecvFromHost"() {key = "recv_only_0", shape = #tf_type.shape<3>, Toutput = f32} : () -> tensor<3xf32>
    %r = "tf.AddV2"(%h, %x) : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
    func.return %r : tensor<3xf32>
  }''')


def send_recv():
    """The device sends x*x (the host keeps it in a variable); the host sends a parsed string constant."""
    host = f'''          %got = "tf._XlaRecvAtHost"(%compile#1) {{key = "send_only_0", device_ordinal = 0 : i64}} : ({KEY}) -> tensor<3xf32>
          "tf.AssignVariableOp"(%var, %got) : (tensor<!tf_type.resource<tensor<3xf32>>>, tensor<3xf32>) -> ()
          %text = "tf.Const"() {{value = dense<["0.25", "-1.5", "1e2"]> : tensor<3x!tf_type.string>}} : () -> tensor<3x!tf_type.string>
          %v = "tf.StringToNumber"(%text) {{out_type = f32}} : (tensor<3x!tf_type.string>) -> tensor<3xf32>
          "tf._XlaSendFromHost"(%v, %compile#1) {{key = "recv_only_0", device_ordinal = 0 : i64}} : (tensor<3xf32>, {KEY}) -> ()
'''
    call = f'"tf.TPUExecute"(%x, %compile#1) : (tensor<3xf32>, {KEY}) -> tensor<3xf32>'
    body = f'''    %var = "tf.VarHandleOp"() {{container = "", shared_name = "seen", dtype = f32, shape = #tf_type.shape<3>}} : () -> tensor<!tf_type.resource<tensor<3xf32>>>
''' + compile_ops(SEND_RECV_DEVICE) + _parallel(host, call, ["tensor<3xf32>"]) + f'''    %seen = "tf.ReadVariableOp"(%var) : (tensor<!tf_type.resource<tensor<3xf32>>>) -> tensor<3xf32>
    func.return %r#0, %seen : tensor<3xf32>, tensor<3xf32>
'''
    return host_module("%x: tensor<3xf32>", body, ("x", "y,seen"), " -> (tensor<3xf32>, tensor<3xf32>)")


# --- replicas: per-replica inputs, a packed input, a cross-replica sum, a host computation per replica ----
def replicated_device(n):
    groups = "[" + ", ".join(str(i) for i in range(n)) + "]"
    return device_module(f'''  func.func @main(%x: tensor<2x3xf32>, %w: tensor<3x2xf32>) -> (tensor<2x2xf32>, tensor<2x2xf32>) {{
    %m = "tf.MatMul"(%x, %w) {{transpose_a = false, transpose_b = false}} : (tensor<2x3xf32>, tensor<3x2xf32>) -> tensor<2x2xf32>
    %g = "tf.Const"() {{value = dense<[{groups}]> : tensor<1x{n}xi32>}} : () -> tensor<1x{n}xi32>
    %s = "tf.CrossReplicaSum"(%m, %g) : (tensor<2x2xf32>, tensor<1x{n}xi32>) -> tensor<2x2xf32>
    %h = "tf._XlaHostComputeMlir"(%m) {{send_key = "host_compute_channel_3_args", recv_key = "host_compute_channel_3_retvals", host_mlir_module = ""}} : (tensor<2x2xf32>) -> tensor<2x2xf32>
    func.return %s, %h : tensor<2x2xf32>, tensor<2x2xf32>
  }}''')


def replicated(n):
    """n replicas: replica r gets x_r (per replica) and w (packed); returns the cross-replica sum of
    x_r @ w and, from the host, (x_r @ w) + r computed with the replica's device ordinal."""
    xs = ", ".join(f"%x{r}" for r in range(n))
    sig = ", ".join(f"%x{r}: tensor<2x3xf32>" for r in range(n)) + ", %w: tensor<3x2xf32>"
    host = f'''          %ord = "tf._TPUDeviceOrdinalPlaceholder"() {{logical_core = 0 : i64}} : () -> tensor<i64>
          %a = "tf._XlaRecvAtHostV2"(%compile#1, %ord) {{key = "host_compute_channel_3_args"}} : ({KEY}, tensor<i64>) -> tensor<2x2xf32>
          %f = "tf.Cast"(%ord) : (tensor<i64>) -> tensor<f32>
          %o = "tf.AddV2"(%a, %f) : (tensor<2x2xf32>, tensor<f32>) -> tensor<2x2xf32>
          "tf._XlaSendFromHostV2"(%o, %compile#1, %ord) {{key = "host_compute_channel_3_retvals"}} : (tensor<2x2xf32>, {KEY}, tensor<i64>) -> ()
'''
    call = f'"tf.TPUExecute"(%rx, %rw, %compile#1) : (tensor<2x3xf32>, tensor<3x2xf32>, {KEY}) -> (tensor<2x2xf32>, tensor<2x2xf32>)'
    par = _parallel(host, call, ["tensor<2x2xf32>", "tensor<2x2xf32>"]).replace("\n    ", "\n      ")
    devices = ", ".join(f'"/job:localhost/replica:0/task:0/device:TPU:{r}"' for r in range(n))
    hosts = ", ".join(f'"{CPU}"' for _ in range(n))
    results = ", ".join(["tensor<2x2xf32>"] * (2 * n))
    body = compile_ops(replicated_device(n)) + f'''    %out:{2 * n} = tf_device.replicate([{xs}] as %rx: tensor<2x3xf32>, %w as %rw: tensor<3x2xf32>) {{n = {n} : i32, devices = {{TPU_REPLICATED_CORE_0 = [{devices}], TPU_REPLICATED_HOST_0 = [{hosts}]}}}} {{
  {par}      tf_device.return %r#0, %r#1 : tensor<2x2xf32>, tensor<2x2xf32>
    }}
    func.return {", ".join(f"%out#{i}" for i in range(2 * n))} : {results}
'''
    inputs = ",".join(f"x{r}" for r in range(n)) + ",w"
    outputs = ",".join(f"sum{r}" for r in range(n)) + "," + ",".join(f"host{r}" for r in range(n))
    return host_module(sig, body, (inputs, outputs), f" -> ({results})")


# --- variables read and updated by the device -------------------------------------------------------------
STEP_DEVICE = device_module('''  func.func @main(%v: tensor<2x2xf32>, %x: tensor<2x2xf32>, %lr: tensor<f32>) -> (tensor<2x2xf32>, tensor<f32>) {
    %g = "tf.MatMul"(%v, %x) {transpose_a = false, transpose_b = false} : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
    %d = "tf.Mul"(%g, %lr) : (tensor<2x2xf32>, tensor<f32>) -> tensor<2x2xf32>
    %n = "tf.Sub"(%v, %d) : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
    %axes = "tf.Const"() {value = dense<[0, 1]> : tensor<2xi32>} : () -> tensor<2xi32>
    %l = "tf.Sum"(%g, %axes) {keep_dims = false} : (tensor<2x2xf32>, tensor<2xi32>) -> tensor<f32>
    func.return %n, %l : tensor<2x2xf32>, tensor<f32>
  }''')


def variables():
    """A variable v (initializer node 'init'), a learning rate variable only read; each run:
    loss = sum(v @ x) (fetched), v <- v - lr * (v @ x) on the device (TPUExecuteAndUpdateVariables)."""
    body = f'''    %v = "tf.VarHandleOp"() {{container = "", shared_name = "v", dtype = f32, shape = #tf_type.shape<2x2>}} : () -> tensor<!tf_type.resource<tensor<2x2xf32>>> loc("v")
    %lr = "tf.VarHandleOp"() {{container = "", shared_name = "lr", dtype = f32, shape = #tf_type.shape<>}} : () -> tensor<!tf_type.resource<tensor<f32>>> loc("lr")
    %init_v = "tf.Const"() {{value = dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>}} : () -> tensor<2x2xf32>
    "tf.AssignVariableOp"(%v, %init_v) : (tensor<!tf_type.resource<tensor<2x2xf32>>>, tensor<2x2xf32>) -> () loc("init")
    %init_lr = "tf.Const"() {{value = dense<0.125> : tensor<f32>}} : () -> tensor<f32>
    "tf.AssignVariableOp"(%lr, %init_lr) : (tensor<!tf_type.resource<tensor<f32>>>, tensor<f32>) -> () loc("init_lr")
''' + compile_ops(STEP_DEVICE) + f'''    %loss = "tf_device.launch"() ({{
      %e = "tf.TPUExecuteAndUpdateVariables"(%v, %x, %lr, %compile#1) {{device_var_reads_indices = [0, 2], device_var_updates_indices = [0, -1]}} : (tensor<!tf_type.resource<tensor<2x2xf32>>>, tensor<2x2xf32>, tensor<!tf_type.resource<tensor<f32>>>, {KEY}) -> tensor<f32>
      tf_device.return %e : tensor<f32>
    }}) {{device = "{TPU}"}} : () -> tensor<f32> loc("step")
    %now = "tf.ReadVariableOp"(%v) : (tensor<!tf_type.resource<tensor<2x2xf32>>>) -> tensor<2x2xf32> loc("read_v")
    func.return %loss : tensor<f32>
'''
    return host_module("%x: tensor<2x2xf32>", body, ("x", "loss"), " -> tensor<f32>")


RESOURCE_DEVICE = device_module('''  func.func @main(%v: tensor<!tf_type.resource<tensor<3xf32>>>, %x: tensor<3xf32>) -> tensor<3xf32> {
    %0 = "tf.ReadVariableOp"(%v) : (tensor<!tf_type.resource<tensor<3xf32>>>) -> tensor<3xf32>
    %1 = "tf.AddV2"(%0, %x) : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
    "tf.AssignVariableOp"(%v, %1) : (tensor<!tf_type.resource<tensor<3xf32>>>, tensor<3xf32>) -> ()
    %2 = "tf.Mul"(%0, %x) : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
    func.return %2 : tensor<3xf32>
  }''')


def resource_argument():
    """TPUExecute (not merged) with a resource operand: main's resource argument is a session variable."""
    body = compile_ops(RESOURCE_DEVICE) + f'''    %r = "tf_device.launch"() ({{
      %e = "tf.TPUExecute"(%acc, %x, %compile#1) : (tensor<!tf_type.resource<tensor<3xf32>>>, tensor<3xf32>, {KEY}) -> tensor<3xf32>
      tf_device.return %e : tensor<3xf32>
    }}) {{device = "{TPU}"}} : () -> tensor<3xf32>
    %now = "tf.ReadVariableOp"(%acc) : (tensor<!tf_type.resource<tensor<3xf32>>>) -> tensor<3xf32> loc("acc_value")
    func.return %r : tensor<3xf32>
'''
    return host_module("%acc: tensor<!tf_type.resource<tensor<3xf32>>>, %x: tensor<3xf32>", body, ("acc,x", "y"),
                       " -> tensor<3xf32>")


# --- the loop again, in functional form on both sides (tf.While with cond/body functions) -------------------
FUNCTIONAL_LOOP_DEVICE = device_module('''  func.func @main(%x: tensor<3xf32>, %n: tensor<i32>) -> (tensor<3xf32>, tensor<i32>) {
    %zero = "tf.Const"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
    %r:3 = "tf.While"(%x, %zero, %n) {cond = @cond, body = @body, is_stateless = false, parallel_iterations = 10 : i64} : (tensor<3xf32>, tensor<i32>, tensor<i32>) -> (tensor<3xf32>, tensor<i32>, tensor<i32>)
    func.return %r#0, %r#1 : tensor<3xf32>, tensor<i32>
  }
  func.func private @cond(%acc: tensor<3xf32>, %i: tensor<i32>, %n: tensor<i32>) -> tensor<i1> {
    %p = "tf.Less"(%i, %n) : (tensor<i32>, tensor<i32>) -> tensor<i1>
    "tf.XlaSendToHost"(%p) {key = "while_condition_channel_0", Tinput = i1} : (tensor<i1>) -> ()
    func.return %p : tensor<i1>
  }
  func.func private @body(%acc: tensor<3xf32>, %i: tensor<i32>, %n: tensor<i32>) -> (tensor<3xf32>, tensor<i32>, tensor<i32>) {
    %one = "tf.Const"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
    %h = "tf._XlaHostComputeMlir"(%acc, %i) {send_key = "host_compute_channel_1_args", recv_key = "host_compute_channel_1_retvals", host_mlir_module = ""} : (tensor<3xf32>, tensor<i32>) -> tensor<3xf32>
    %a = "tf.AddV2"(%acc, %h) : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
    %j = "tf.AddV2"(%i, %one) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    func.return %a, %j, %n : tensor<3xf32>, tensor<i32>, tensor<i32>
  }''')


def functional_loop():
    """loop() with tf.While and functions on the device and on the host; the host's loop functions
    get the program key as a loop variable."""
    host = f'''          %z = "tf.Const"() {{value = dense<0> : tensor<i32>}} : () -> tensor<i32>
          %w:2 = "tf.While"(%z, %compile#1) {{cond = @host_cond, body = @host_body, is_stateless = false, parallel_iterations = 1 : i64}} : (tensor<i32>, {KEY}) -> (tensor<i32>, {KEY})
'''
    call = f'"tf.TPUExecute"(%x, %n, %compile#1) : (tensor<3xf32>, tensor<i32>, {KEY}) -> (tensor<3xf32>, tensor<i32>)'
    body = compile_ops(FUNCTIONAL_LOOP_DEVICE) + _parallel(host, call, ["tensor<3xf32>", "tensor<i32>"]) + \
        "    func.return %r#0, %r#1 : tensor<3xf32>, tensor<i32>\n"
    text = host_module("%x: tensor<3xf32>, %n: tensor<i32>", body, ("x,n", "acc,count"),
                       " -> (tensor<3xf32>, tensor<i32>)")
    functions = f'''  func.func private @host_cond(%c: tensor<i32>, %key: {KEY}) -> tensor<i1> {{
    %p = "tf._XlaRecvAtHost"(%key) {{key = "while_condition_channel_0", device_ordinal = 0 : i64}} : ({KEY}) -> tensor<i1>
    func.return %p : tensor<i1>
  }}
  func.func private @host_body(%c: tensor<i32>, %key: {KEY}) -> (tensor<i32>, {KEY}) {{
    %a:2 = "tf._XlaRecvAtHost"(%key) {{key = "host_compute_channel_1_args", device_ordinal = 0 : i64}} : ({KEY}) -> (tensor<3xf32>, tensor<i32>)
    %o = "tf.StatefulPartitionedCall"(%a#0, %a#1) {{f = @host_math, config = "", config_proto = "", executor_type = ""}} : (tensor<3xf32>, tensor<i32>) -> tensor<3xf32>
    "tf._XlaSendFromHost"(%o, %key) {{key = "host_compute_channel_1_retvals", device_ordinal = 0 : i64}} : (tensor<3xf32>, {KEY}) -> ()
    %one = "tf.Const"() {{value = dense<1> : tensor<i32>}} : () -> tensor<i32>
    %c1 = "tf.AddV2"(%c, %one) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    func.return %c1, %key : tensor<i32>, {KEY}
  }}
  func.func private @host_math(%v: tensor<3xf32>, %i: tensor<i32>) -> tensor<3xf32> {{
    %s = "tf.AsString"(%v) : (tensor<3xf32>) -> tensor<3x!tf_type.string>
    %n = "tf.StringToNumber"(%s) {{out_type = f32}} : (tensor<3x!tf_type.string>) -> tensor<3xf32>
    %half = "tf.Const"() {{value = dense<0.5> : tensor<f32>}} : () -> tensor<f32>
    %m = "tf.Mul"(%n, %half) : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
    %fi = "tf.Cast"(%i) : (tensor<i32>) -> tensor<f32>
    %o = "tf.AddV2"(%m, %fi) : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
    func.return %o : tensor<3xf32>
  }}
'''
    return text[:text.rindex("}")] + functions + "}\n"


# --- a TF1-style graph: variable, initializer reached through control edges, update then read ---------------
UPDATE_DEVICE = device_module('''  func.func @main(%v: tensor<2xf32>, %x: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>) {
    %n = "tf.AddV2"(%v, %x) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    %p = "tf.Mul"(%v, %x) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    func.return %n, %p : tensor<2xf32>, tensor<2xf32>
  }''')


def executor_variables():
    """Islands: w = VarHandleOp; 'w/Assign' (control) <- 'init' (NoOp); 'update' runs the device program
    (w <- w + x, returns w * x); 'read' reads w after 'update' through a control edge."""
    res = "tensor<!tf_type.resource<tensor<2xf32>>>"
    body = f'''    %out:2 = tf_executor.graph {{
      %w, %wc = tf_executor.island wraps "tf.VarHandleOp"() {{container = "", shared_name = "", dtype = f32, shape = #tf_type.shape<2>}} : () -> {res} loc("w")
      %ac = tf_executor.island {{
        %c = "tf.Const"() {{value = dense<[1.0, -2.0]> : tensor<2xf32>}} : () -> tensor<2xf32> loc("w/initial_value")
        "tf.AssignVariableOp"(%w, %c) : ({res}, tensor<2xf32>) -> () loc("w/Assign")
        tf_executor.yield
      }}
      %ic = tf_executor.island(%ac) wraps "tf.NoOp"() : () -> () loc("init")
      %key, %kc = tf_executor.island {{
{_indent(compile_ops(UPDATE_DEVICE), 4)}        tf_executor.yield %compile#1 : {KEY}
      }}
      %y, %uc = tf_executor.island {{
        %r = "tf_device.launch"() ({{
          %e = "tf.TPUExecuteAndUpdateVariables"(%w, %x, %key) {{device_var_reads_indices = [0], device_var_updates_indices = [0]}} : ({res}, tensor<2xf32>, {KEY}) -> tensor<2xf32>
          tf_device.return %e : tensor<2xf32>
        }}) {{device = "{TPU}"}} : () -> tensor<2xf32> loc("update")
        tf_executor.yield %r : tensor<2xf32>
      }}
      %read, %rc = tf_executor.island(%uc) wraps "tf.ReadVariableOp"(%w) : ({res}) -> tensor<2xf32> loc("read")
      tf_executor.fetch %y, %read : tensor<2xf32>, tensor<2xf32>
    }}
    func.return %out#0, %out#1 : tensor<2xf32>, tensor<2xf32>
'''
    return host_module("%x: tensor<2xf32>", body, ("x", "y,w_now"), " -> (tensor<2xf32>, tensor<2xf32>)")
