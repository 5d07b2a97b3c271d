"""tfmlir.runtime.cache: the on-disk cache of legalized programs and XLA executables.

What it must never do is hand back something other than what was stored: torn, truncated
and corrupted entries are detected and removed; a folder it cannot use only costs time.
"""
import os
import subprocess
import sys
import textwrap

import pytest

from tfmlir.runtime import cache


@pytest.fixture
def store(tmp_path):
    return cache.DiskCache(tmp_path / "c", max_bytes=1 << 20)


def _entry_path(store, kind, key):
    return os.path.join(store.directory, kind, key[:2], key)


def test_keys_separate_their_parts():
    assert cache.key("ab", "c") != cache.key("a", "bc")
    assert cache.key("a", b"b") == cache.key(b"a", "b")
    assert len(cache.key("x")) == 64


def test_round_trip_and_miss(store):
    key = cache.key("program")
    assert store.get("stablehlo", key) is None
    store.put("stablehlo", key, b"module {}")
    assert store.get("stablehlo", key) == b"module {}"
    assert store.get("executable", key) is None  # kinds are separate


@pytest.mark.parametrize("damage", ["truncate", "flip", "header", "empty"])
def test_a_damaged_entry_is_a_miss_and_is_removed(store, damage):
    key = cache.key("program", damage)
    payload = bytes(range(256)) * 8
    store.put("executable", key, payload)
    path = _entry_path(store, "executable", key)
    data = bytearray(open(path, "rb").read())
    if damage == "truncate":
        data = data[:-100]
    elif damage == "flip":
        data[-7] ^= 0x40
    elif damage == "header":
        data[:8] = b"XXXXXXXX"
    else:
        data = b""
    with open(path, "wb") as f:
        f.write(data)
    before = cache.stats()["corrupt"]
    assert store.get("executable", key) is None
    assert cache.stats()["corrupt"] == before + 1
    assert not os.path.exists(path)
    store.put("executable", key, payload)  # rebuilt
    assert store.get("executable", key) == payload


def test_a_process_killed_while_writing_leaves_no_entry(tmp_path):
    # The child dies (SIGKILL-like os._exit) between writing the temporary file and renaming it.
    folder = tmp_path / "c"
    code = textwrap.dedent(f"""
        import os
        from tfmlir.runtime import cache
        store = cache.DiskCache({str(folder)!r})
        real = os.replace
        def die(*args):
            os._exit(9)
        os.replace = die
        store.put("stablehlo", cache.key("p"), b"x" * 100000)
    """)
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 9, proc.stderr
    store = cache.DiskCache(folder)
    assert store.get("stablehlo", cache.key("p")) is None
    leftovers = [name for _, _, files in os.walk(folder) for name in files]
    assert leftovers and all(name.startswith(".tmp-") for name in leftovers)


def test_eviction_keeps_the_cache_under_its_bound(tmp_path):
    store = cache.DiskCache(tmp_path / "c", max_bytes=10_000)
    keys = [cache.key("p", str(i)) for i in range(8)]
    for i, key in enumerate(keys):
        store.put("stablehlo", key, bytes([i]) * 3000)
        os.utime(_entry_path(store, "stablehlo", key), (1000 + i, 1000 + i))
    total = sum(os.path.getsize(os.path.join(root, name))
                for root, _, files in os.walk(store.directory) for name in files)
    assert total <= 10_000
    assert store.get("stablehlo", keys[-1]) == bytes([7]) * 3000  # the newest stays
    assert store.get("stablehlo", keys[0]) is None  # the oldest went first


def test_an_unusable_folder_only_warns(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    store = cache.DiskCache(blocker / "c")
    with pytest.warns(RuntimeWarning, match="not used"):
        store.put("stablehlo", cache.key("p"), b"x")
    assert store.get("stablehlo", cache.key("p")) is None


def test_bad_entry_names_are_refused(store):
    with pytest.raises(ValueError):
        store.get("../x", cache.key("p"))
    with pytest.raises(ValueError):
        store.put("stablehlo", "../../etc/passwd", b"x")


def test_configuration_from_the_environment_and_from_code(tmp_path, monkeypatch):
    try:
        monkeypatch.setenv("TFMLIR_CACHE_DIR", "off")
        cache.reset()  # the environment decides
        assert cache.default() is None
        monkeypatch.setenv("TFMLIR_CACHE_DIR", str(tmp_path / "env"))
        cache.reset()
        assert cache.default().directory == str(tmp_path / "env")
        cache.configure(directory=str(tmp_path / "code"), max_bytes=123)
        assert cache.default().directory == str(tmp_path / "code") and cache.default().max_bytes == 123
        cache.configure(directory=None)
        assert cache.default() is None
    finally:
        cache.reset()


def test_an_executable_comes_back_from_the_cache(runtime_cache):
    pytest.importorskip("jax")
    import numpy as np

    from tfmlir.runtime import _jaxlib, device

    text = textwrap.dedent("""
        module @m {
          func.func public @main(%a: tensor<4xf32>) -> tensor<4xf32> {
            %0 = stablehlo.multiply %a, %a : tensor<4xf32>
            return %0 : tensor<4xf32>
          }
        }""")
    first = device.Executable(text, 1)
    writes = cache.stats()["writes"]
    assert writes >= 1
    hits = cache.stats()["hits"]
    second = device.Executable(text, 1)
    assert cache.stats()["hits"] == hits + 1
    x = np.arange(4, dtype=np.float32)
    assert (second.run([[x]])[0][0] == first.run([[x]])[0][0]).all()
    # Another replica count is another entry.
    if _jaxlib.device_count() >= 2:
        hits, writes = cache.stats()["hits"], cache.stats()["writes"]
        device.Executable(text, 2)
        assert cache.stats()["hits"] == hits and cache.stats()["writes"] == writes + 1


DEVICE_PROGRAM = textwrap.dedent("""
    module {
      func.func @main(%arg0: tensor<3xf32>) -> tensor<3xf32> {
        %0 = "tf.Square"(%arg0) : (tensor<3xf32>) -> tensor<3xf32>
        %1 = "tf.AddV2"(%0, %arg0) : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
        func.return %1 : tensor<3xf32>
      }
    }
""")


@pytest.mark.tf
def test_a_legalized_program_comes_from_the_cache_without_tensorflow(runtime_cache, legalization_jobs):
    from conftest import require_tensorflow
    require_tensorflow()
    from tfmlir import tf_child
    from tfmlir.runtime import legalize

    jobs = legalization_jobs
    try:
        first = legalize.legalize(DEVICE_PROGRAM)
        assert jobs == ["pipeline"] and "stablehlo" in first
        # Same program, same toolchain: no TensorFlow job at all.
        assert legalize.legalize(DEVICE_PROGRAM) == first and jobs == ["pipeline"]
        # Another program is another entry.
        legalize.legalize(DEVICE_PROGRAM.replace("tf.Square", "tf.Neg"))
        assert jobs == ["pipeline", "pipeline"]
        assert legalize.cache_key(DEVICE_PROGRAM) != legalize.cache_key(DEVICE_PROGRAM + " ")
    finally:
        tf_child.shutdown()
