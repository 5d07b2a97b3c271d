"""Benchmark: tfmlir's executor passes against TensorFlow's C++ passes.

    python bench/executor_passes.py [--reps 3] [--graphs chain20k,diamond20k,synthetic50k,...]

For each graph and pass, the best of `reps` runs of:

* TF: ``tf.mlir.experimental.run_pass_pipeline`` (parse + pass + print, in a
  TensorFlow child process; the same pipeline with no pass gives TF's
  parse + print);
* tfmlir: parse, the pass through ``tfmlir.passes.PassPipeline`` (which
  verifies before and after, as TF does), print -- in this process.

Graphs: ``chainN`` (one data chain of N single-op islands: everything merges),
``diamondN`` (N islands in layers of two parallel ops joined by an AddV2),
``wideN`` (N independent islands feeding the fetch), and the
tfmlir.testing.corpus models (``synthetic50k``, ``bert48``, ``resnet50``, ...).
"""
import argparse
import os
import tempfile

import tfmlir  # noqa: E402  (print_ir; registers the dialects)
from pass_timing import our_times, tf_best_times  # noqa: E402  (shared timing)

PASSES = {
    "coarsening": ("func.func(tf-executor-island-coarsening)",
                   "builtin.module(func.func(tf-executor-island-coarsening))"),
    "pruning": ("func.func(tf-executor-graph-pruning)",
                "builtin.module(func.func(tf-executor-graph-pruning))"),
    "coarsen+break-up": ("func.func(tf-executor-island-coarsening),tf-executor-break-up-islands",
                         "builtin.module(func.func(tf-executor-island-coarsening),"
                         "tf-executor-break-up-islands)"),
}


def _graph_text(kind, n):
    t = "tensor<f32>"
    lines = [f"func.func @main(%arg0: {t}, %arg1: {t}) -> {t} attributes "
             '{tf.entry_function = {inputs = "x,y", outputs = "z"}} {',
             f"  %0 = tf_executor.graph {{"]
    if kind == "chain":
        prev = "%arg0"
        for i in range(n):
            lines.append(f'    %o{i}, %c{i} = tf_executor.island wraps "tf.Neg"({prev}) '
                         f'{{device = ""}} : ({t}) -> {t}')
            prev = f"%o{i}"
        fetched = prev
    elif kind == "diamond":
        prev = "%arg0"
        i = 0
        while i + 3 <= n:
            lines.append(f'    %o{i}, %c{i} = tf_executor.island wraps "tf.Neg"({prev}) : ({t}) -> {t}')
            lines.append(f'    %o{i+1}, %c{i+1} = tf_executor.island wraps "tf.Abs"({prev}) : ({t}) -> {t}')
            lines.append(f'    %o{i+2}, %c{i+2} = tf_executor.island wraps "tf.AddV2"(%o{i}, %o{i+1}) '
                         f': ({t}, {t}) -> {t}')
            prev = f"%o{i+2}"
            i += 3
        fetched = prev
    elif kind == "wide":
        acc = []
        for i in range(n):
            lines.append(f'    %o{i}, %c{i} = tf_executor.island wraps "tf.Neg"(%arg{i % 2}) : ({t}) -> {t}')
            acc.append(f"%c{i}")
        lines.append(f"    tf_executor.fetch %arg0, {', '.join(acc)} : {t}"
                     + ", !tf_executor.control" * len(acc))
        lines += ["  }", f"  return %0 : {t}", "}"]
        return "\n".join(lines) + "\n"
    else:
        raise ValueError(kind)
    lines += [f"    tf_executor.fetch {fetched} : {t}", "  }", f"  return %0 : {t}", "}"]
    return "\n".join(lines) + "\n"


def graph_text(name):
    for kind in ("chain", "diamond", "wide"):
        if name.startswith(kind):
            count = name[len(kind):].replace("k", "000")
            return _graph_text(kind, int(count))
    from tfmlir.testing import corpus
    return corpus.get(name)


def tf_times(paths, reps):
    """{(graph, pass or ''): best seconds} from one TensorFlow child."""
    keys, jobs = [], []
    for graph, path in paths.items():
        for name, (tf_pipeline, _) in [("", ("", ""))] + list(PASSES.items()):
            keys.append((graph, name))
            jobs.append((path, tf_pipeline, reps))
    return dict(zip(keys, tf_best_times(jobs)))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--graphs", default="chain20k,diamond21k,wide20k,synthetic50k,bert48")
    parser.add_argument("--passes", default=",".join(PASSES))
    parser.add_argument("--no-tf", action="store_true", help="only time tfmlir")
    args = parser.parse_args(argv)
    graphs = args.graphs.split(",")
    passes = args.passes.split(",")
    with tempfile.TemporaryDirectory() as tmp:
        paths, texts = {}, {}
        for graph in graphs:
            texts[graph] = graph_text(graph)
            paths[graph] = os.path.join(tmp, graph + ".mlir")
            with open(paths[graph], "w") as f:
                f.write(texts[graph])
        tf = {} if args.no_tf else tf_times(paths, args.reps)
    print(f"{'graph':14} {'islands':>8} {'pass':18} {'TF total':>9} {'TF p+p':>8} "
          f"{'ours':>7} {'parse':>7} {'pass':>7} {'print':>7} {'ratio':>6}")
    for graph in graphs:
        islands = texts[graph].count("tf_executor.island")
        for name in passes:
            parse, run, printing, total = our_times(texts[graph], PASSES[name][1], args.reps)
            tf_total = tf.get((graph, name))
            tf_pp = tf.get((graph, ""))
            ratio = f"{total / tf_total:6.2f}" if tf_total else "     -"
            tf_cols = (f"{tf_total:9.3f} {tf_pp:8.3f}" if tf_total else f"{'-':>9} {'-':>8}")
            print(f"{graph:14} {islands:8d} {name:18} {tf_cols} {total:7.3f} {parse:7.3f} "
                  f"{run:7.3f} {printing:7.3f} {ratio}", flush=True)


if __name__ == "__main__":
    main()
