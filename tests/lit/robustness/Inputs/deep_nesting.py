"""Writes deeply nested textual IR to stdout: ``deep_nesting.py KIND N``.

KIND: ``arrays`` (an attribute of N nested arrays), ``if-regions`` (N nested
tf.IfRegion ops), ``islands`` (N nested tf_executor.graph/island pairs).
"""
import sys


def arrays(n):
    return "func.func @f() attributes {a = " + "[" * n + "]" * n + "} {\n  func.return\n}\n"


def if_regions(n):
    head = [f'%r{d} = "tf.IfRegion"(%c) ({{' for d in range(n)]
    tail = [f'"tf.Yield"(%r{d + 1}) : (tensor<f32>) -> () }}, {{ "tf.Yield"(%x) : (tensor<f32>) -> () '
            f"}}) {{is_stateless = true}} : (tensor<i1>) -> tensor<f32>" for d in reversed(range(n))]
    return ("func.func @f(%c: tensor<i1>, %x: tensor<f32>) -> tensor<f32> {\n" + "\n".join(
        head + [f'%r{n} = "tf.Identity"(%x) : (tensor<f32>) -> tensor<f32>'] + tail) +
        "\nfunc.return %r0 : tensor<f32>\n}\n")


def islands(n):
    head = [f"%g{d} = tf_executor.graph {{\n%i{d}:2 = tf_executor.island {{" for d in range(n)]
    tail = [f"tf_executor.yield %g{d + 1} : tensor<f32>\n}}\ntf_executor.fetch %i{d}#0 : tensor<f32>\n}}"
            for d in reversed(range(n))]
    return ("func.func @f(%x: tensor<f32>) -> tensor<f32> {\n" + "\n".join(
        head + [f'%g{n} = "tf.Identity"(%x) : (tensor<f32>) -> tensor<f32>'] + tail) +
        "\nfunc.return %g0 : tensor<f32>\n}\n")


if __name__ == "__main__":
    kind, count = sys.argv[1], int(sys.argv[2])
    sys.stdout.write({"arrays": arrays, "if-regions": if_regions, "islands": islands}[kind](count))
