"""One process of a distributed job in the tests (run by tfmlir.runtime.distributed.launch).

``python distributed_worker.py allreduce``: joins the job the environment describes
(2 CPU devices per process), compiles a cross-replica sum over every device of the
job with tfmlir's jaxlib entry points, runs it with this process's values (replica r
gives ``r + 1``) and prints this process's index and results as JSON.
``python distributed_worker.py die``: joins, then process 1 exits with status 3 before
the collective while the others wait in it; ``kill``: process 1 kills itself (SIGKILL)
there instead.
``python distributed_worker.py session PROGRAM.pb FEED.npy TARGET FETCH...``: opens
``runtime.Session(PROGRAM, distributed=<the job>)``, runs TARGET, then fetches with ``x:0``
fed -- process 0 from FEED.npy, the others with zeros (process 0's feeds are the ones used) --
and prints the values as JSON.
"""
import json
import os
import sys

os.environ.setdefault("TFMLIR_CPU_DEVICES", "2")
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

PROGRAM = """
module @sum attributes {{mhlo.num_replicas = {n} : i32, mhlo.num_partitions = 1 : i32}} {{
  func.func public @main(%arg0: tensor<3xf32>) -> tensor<3xf32> {{
    %0 = "stablehlo.all_reduce"(%arg0) ({{
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }}) {{replica_groups = dense<[[{replicas}]]> : tensor<1x{n}xi64>}} : (tensor<3xf32>) -> tensor<3xf32>
    return %0 : tensor<3xf32>
  }}
}}
"""


def session(program, feed, target, *fetches):
    import numpy as np

    from tfmlir import runtime
    from tfmlir.runtime import distributed

    job = distributed.from_environment()
    value = np.load(feed)
    if job.process_id != 0:
        value = np.zeros_like(value)
    with runtime.Session(program, distributed=job) as sess:
        sess.run(targets=[target])
        got = sess.run(list(fetches), {"x:0": value})
    print(json.dumps({"process": job.process_id, "values": [np.asarray(v).tolist() for v in got]}))
    sys.stdout.flush()


def main(mode):
    import numpy as np

    from tfmlir.runtime import _jaxlib, distributed

    job = distributed.from_environment()
    distributed.join(job, timeout_s=30, heartbeat_s=5)
    devices = _jaxlib.global_devices()
    n = len(devices)
    text = PROGRAM.format(n=n, replicas=", ".join(map(str, range(n))))
    executable, devices, _signature = _jaxlib.compile(text, num_replicas=n)
    place, mine = _jaxlib.process_local_placer([((3,), np.float32)], devices)
    if mode == "die" and job.process_id == 1:
        sys.stdout.flush()
        os._exit(3)
    if mode == "kill" and job.process_id == 1:
        import signal
        os.kill(os.getpid(), signal.SIGKILL)
    values = [np.full(3, devices.index(d) + 1, np.float32) for d in mine]
    outputs, _ = _jaxlib.execute(executable, place([values]))
    print(json.dumps({"process": _jaxlib.process_index(), "devices": n,
                      "replicas": [devices.index(d) for d in mine],
                      "results": [o.tolist() for o in outputs[0]]}))
    sys.stdout.flush()
    _jaxlib.leave_distributed()


if __name__ == "__main__":
    if sys.argv[1] == "session":
        session(*sys.argv[2:])
    else:
        main(sys.argv[1])
