"""TensorFlow's results for (MLIR text, pipeline) jobs, cached on disk by content.

:func:`results` answers every job from ``CACHE_DIR/<key>.json`` where present
and runs the others in one TensorFlow child process
(:func:`tfmlir.testing.tf_oracle.run_tf_pipelines_isolated`: a job that kills
TensorFlow is recorded as crashed and the rest still run), then stores them.
The key hashes TensorFlow's version, the pipeline and the text, so a changed
input or pipeline runs again and nothing stale is ever answered.
"""
import hashlib
import json
import os


def tf_version():
    from importlib import metadata

    for dist in ("tensorflow", "tensorflow-cpu", "tf-nightly"):
        try:
            return metadata.version(dist)
        except metadata.PackageNotFoundError:
            continue
    return "unknown"


def key(text, pipeline):
    digest = hashlib.sha256()
    for part in (tf_version(), pipeline, text):
        digest.update(part.encode())
        digest.update(b"\0")
    return digest.hexdigest()[:32]


def results(jobs, cache_dir, timeout=1800):
    """``({name: result}, names run now)`` for `jobs` ``{name: (text, TF pipeline)}``.

    A result is ``{"ok": True, "text", "seconds", "stderr"}`` or ``{"ok": False, "error",
    "seconds", "stderr"}`` with ``"crashed": True`` where TensorFlow's process died or was
    killed (see ``run_tf_pipelines_isolated``).
    """
    os.makedirs(cache_dir, exist_ok=True)
    found, missing = {}, []
    for name, (text, pipeline) in jobs.items():
        path = os.path.join(cache_dir, key(text, pipeline) + ".json")
        if os.path.exists(path):
            with open(path) as f:
                found[name] = json.load(f)
        else:
            missing.append(name)
    if missing:
        from tfmlir.testing.tf_oracle import run_tf_pipelines_isolated

        ran = run_tf_pipelines_isolated([jobs[name] for name in missing], timeout=timeout)
        for name, result in zip(missing, ran):
            text, pipeline = jobs[name]
            result = dict(result, pipeline=pipeline, job=name)
            if result.get("crashed") and result["error"].startswith("not run:"):
                found[name] = result  # not stored: a later run tries again
                continue
            path = os.path.join(cache_dir, key(text, pipeline) + ".json")
            with open(path + ".tmp", "w") as f:
                json.dump(result, f)
            os.replace(path + ".tmp", path)
            found[name] = result
    return found, missing
