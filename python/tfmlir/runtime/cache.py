"""A persistent on-disk cache for what building a session computes: legalized StableHLO
(TensorFlow's passes, seconds per program) and compiled XLA executables.

Entries are keyed by a SHA-256 of everything that decides their content (the input text,
the versions of TensorFlow, jax/jaxlib and tfmlir, the pipeline, the compile options; see
:func:`key`). Each entry is one file written to a temporary name and renamed into place, so
readers never see half of one; its payload is stored with its own SHA-256, checked on every
read, so a torn or corrupted file (a killed process, a full disk, a bad sector) is detected,
removed and rebuilt -- never handed to XLA. The cache is bounded (least recently used
entries go first) and is never needed: any error reading or writing it only costs the time
it would have saved (a warning, once).

Where: ``$TFMLIR_CACHE_DIR`` if set (``off``, ``0`` or empty turn the cache off), else
``$XDG_CACHE_HOME/tfmlir`` (``~/.cache/tfmlir``). Size: ``$TFMLIR_CACHE_MAX_BYTES``
(default 4 GiB). :func:`configure` sets both from code, :func:`reset` goes back to the
environment.
"""
import hashlib
import os
import struct
import tempfile
import threading
import time
import warnings

_MAGIC = b"TFMLIRC1"
_HEADER = struct.Struct("<8s32sQ")  # magic, SHA-256 of the payload, payload length
_DEFAULT_MAX_BYTES = 4 << 30
_STALE_TEMPORARY_SECONDS = 3600  # a temporary file this old belongs to a process that died

_lock = threading.Lock()
_configured = {}  # "directory" / "max_bytes" set by configure()
_instance = None
_stats = {"hits": 0, "misses": 0, "writes": 0, "corrupt": 0, "evicted": 0}


def key(*parts) -> str:
    """The hex SHA-256 of `parts` (str or bytes), each length-prefixed: no two different part
    lists share a key."""
    digest = hashlib.sha256()
    for part in parts:
        data = part.encode("utf-8", "surrogatepass") if isinstance(part, str) else bytes(part)
        digest.update(struct.pack("<Q", len(data)))
        digest.update(data)
    return digest.hexdigest()


_IDENTITY = []


def package_identity() -> str:
    """What tfmlir's own results depend on: the installed package's files (name, size and
    modification time of each, the native library included) and the versions of the MLIR
    bindings and jax/jaxlib it runs with. Any reinstall or edit changes it, so entries built
    by other code are never used."""
    if not _IDENTITY:
        from importlib import metadata

        root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        digest = hashlib.sha256()
        for folder, dirs, files in os.walk(root):
            dirs.sort()
            dirs[:] = [d for d in dirs if d != "__pycache__"]
            for name in sorted(files):
                path = os.path.join(folder, name)
                try:
                    st = os.stat(path)
                except OSError:
                    continue
                digest.update(f"{os.path.relpath(path, root)}:{st.st_size}:{st.st_mtime_ns}\n".encode(
                    "utf-8", "surrogateescape"))
        for dist in ("xtc-mlir-python-bindings", "jax", "jaxlib"):
            try:
                digest.update(f"{dist}=={metadata.version(dist)}\n".encode())
            except metadata.PackageNotFoundError:
                digest.update(f"{dist}: none\n".encode())
        _IDENTITY.append(digest.hexdigest())
    return _IDENTITY[0]


class DiskCache:
    """Entries under `directory`, grouped by kind (``<kind>/<key[:2]>/<key>``), at most
    `max_bytes` in all."""

    def __init__(self, directory, max_bytes=_DEFAULT_MAX_BYTES):
        self.directory = os.path.abspath(directory)
        self.max_bytes = int(max_bytes)
        self._broken = False

    def _path(self, kind, entry_key):
        if not kind.isidentifier() or len(entry_key) != 64 or not all(
                c in "0123456789abcdef" for c in entry_key):
            raise ValueError(f"bad cache entry name {kind!r}/{entry_key!r}")
        return os.path.join(self.directory, kind, entry_key[:2], entry_key)

    def _disable(self, what, exc):
        if not self._broken:
            self._broken = True
            warnings.warn(f"tfmlir's cache at {self.directory} is not used: {what} failed ({exc})",
                          RuntimeWarning, stacklevel=3)

    def get(self, kind, entry_key):
        """The payload stored under (`kind`, `entry_key`), or None (absent, unreadable or
        corrupted -- a corrupted entry is removed)."""
        if self._broken:
            return None
        path = self._path(kind, entry_key)
        try:
            with open(path, "rb") as f:
                data = f.read()
        except FileNotFoundError:
            _count("misses")
            return None
        except OSError as exc:
            self._disable("reading", exc)
            return None
        payload = _unpack(data)
        if payload is None:
            _count("corrupt")
            _count("misses")
            try:
                os.remove(path)
            except OSError:
                pass
            return None
        try:
            os.utime(path)  # recently used: evicted last
        except OSError:
            pass
        _count("hits")
        return payload

    def put(self, kind, entry_key, payload):
        """Stores `payload` (bytes) under (`kind`, `entry_key`), atomically."""
        if self._broken:
            return
        path = self._path(kind, entry_key)
        folder = os.path.dirname(path)
        payload = bytes(payload)
        header = _HEADER.pack(_MAGIC, hashlib.sha256(payload).digest(), len(payload))
        try:
            os.makedirs(folder, mode=0o700, exist_ok=True)
            fd, temporary = tempfile.mkstemp(prefix=".tmp-", dir=folder)
            try:
                with os.fdopen(fd, "wb") as f:
                    f.write(header)
                    f.write(payload)
                    f.flush()
                    os.fsync(f.fileno())
                os.replace(temporary, path)
            except BaseException:
                try:
                    os.remove(temporary)
                except OSError:
                    pass
                raise
        except OSError as exc:
            self._disable("writing", exc)
            return
        _count("writes")
        self._evict()

    def _evict(self):
        """Removes least recently used entries while the cache holds more than max_bytes
        (down to 90% of it), and temporary files left by processes that died."""
        entries, total, now = [], 0, time.time()
        for root, _dirs, files in os.walk(self.directory):
            for name in files:
                path = os.path.join(root, name)
                try:
                    st = os.stat(path)
                except OSError:
                    continue
                if name.startswith(".tmp-"):
                    if now - st.st_mtime > _STALE_TEMPORARY_SECONDS:
                        try:
                            os.remove(path)
                        except OSError:
                            pass
                    continue
                entries.append((st.st_mtime, st.st_size, path))
                total += st.st_size
        if total <= self.max_bytes:
            return
        entries.sort()
        goal = self.max_bytes * 9 // 10
        for _mtime, size, path in entries:
            if total <= goal:
                break
            try:
                os.remove(path)
            except OSError:
                continue
            total -= size
            _count("evicted")

    def clear(self):
        """Removes every entry (and the cache's folders)."""
        import shutil

        shutil.rmtree(self.directory, ignore_errors=True)


def _unpack(data):
    if len(data) < _HEADER.size:
        return None
    magic, digest, length = _HEADER.unpack_from(data)
    payload = data[_HEADER.size:]
    if magic != _MAGIC or length != len(payload) or hashlib.sha256(payload).digest() != digest:
        return None
    return payload


def _count(what):
    with _lock:
        _stats[what] += 1


def stats():
    """Counts of this process's cache hits, misses, writes, corrupted entries found, evictions."""
    with _lock:
        return dict(_stats)


def configure(directory=..., max_bytes=...):
    """Sets the cache's folder (None: no cache) and/or its size bound for this process,
    overriding the environment."""
    global _instance
    with _lock:
        if directory is not ...:
            _configured["directory"] = directory
        if max_bytes is not ...:
            _configured["max_bytes"] = max_bytes
        _instance = None


def reset():
    """Forgets what :func:`configure` set: the environment decides again, at the next use."""
    global _instance
    with _lock:
        _configured.clear()
        _instance = None


def default():
    """The process's cache (per :func:`configure`, else the environment), or None when off."""
    global _instance
    with _lock:
        if _instance is not None:
            return _instance if _instance is not False else None
        directory = _configured.get("directory", ...)
        if directory is ...:
            directory = os.environ.get("TFMLIR_CACHE_DIR")
            if directory is None:
                base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
                directory = os.path.join(base, "tfmlir")
            elif directory.strip().lower() in ("", "0", "off", "none", "false"):
                directory = None
        max_bytes = _configured.get("max_bytes")
        if max_bytes is None:
            try:
                max_bytes = int(os.environ.get("TFMLIR_CACHE_MAX_BYTES", _DEFAULT_MAX_BYTES))
            except ValueError:
                max_bytes = _DEFAULT_MAX_BYTES
        _instance = DiskCache(directory, max_bytes) if directory else False
        return _instance if _instance is not False else None
