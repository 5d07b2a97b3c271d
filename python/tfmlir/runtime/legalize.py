"""Device programs (tf dialect) to StableHLO: the cache, then TensorFlow's two routes.

:func:`legalize` looks the program up in the on-disk cache (:mod:`.cache`);
otherwise TensorFlow's MLIR legalization (:mod:`.mlir_route`, in TensorFlow's
child process, :mod:`tfmlir.tf_child`) runs first. ``xla-legalize-tf`` never fails on
an op it cannot lower, so the result is scanned; ops left over go to
TensorFlow's graph route (:mod:`.graph_route`, ``tf.function(jit_compile=True)``)
when the program allows it; what neither route lowers is a
:class:`LegalizationError` naming every op left over, with its location (TF
node name where the program carries one), before anything runs.
``docs/runtime-coverage.md`` says which of TF's ops take which route.
"""
import functools

from . import cache, graph_route, mlir_route
from .errors import GraphRouteError, GraphRouteRefused, LegalizationError

__all__ = ["legalize", "cache_key", "LegalizationError"]


@functools.lru_cache(maxsize=None)
def _toolchain():
    """What decides a legalization's result besides the program: TensorFlow's version, the
    pipeline and tfmlir itself (:func:`.cache.package_identity`)."""
    from importlib import metadata

    try:
        tf_version = metadata.version("tensorflow")
    except metadata.PackageNotFoundError:
        tf_version = "none"
    return (cache.package_identity(), tf_version, mlir_route.PIPELINE)


def cache_key(device_program: str) -> str:
    """The key of `device_program`'s legalized StableHLO in the on-disk cache."""
    return cache.key("stablehlo", *_toolchain(), device_program)


def legalize(device_program: str) -> str:
    """StableHLO text of a device program (an MLIR module in the tf dialect, entry ``main``),
    from the on-disk cache (:mod:`.cache`) when a previous legalization of the same program
    by the same toolchain is there.

    TensorFlow's MLIR passes first; if they leave ops (or fail) and the
    program has no host computation and no resource arguments, TensorFlow's
    graph route (:mod:`.graph_route`). Raises :class:`LegalizationError` if
    neither gives StableHLO: the error names each op left and its location,
    why the MLIR route left them and why the graph route failed or was not
    taken.
    """
    store = cache.default()
    entry = cache_key(device_program) if store is not None else None
    if store is not None:
        found = store.get("stablehlo", entry)
        if found is not None:
            return found.decode("utf-8")
    text = _legalize(device_program)
    if store is not None:
        store.put("stablehlo", entry, text.encode("utf-8"))
    return text


def _listing(left):
    listed = "; ".join(f"'{name}' at {loc}" for name, loc in left[:20])
    more = f" (and {len(left) - 20} more)" if len(left) > 20 else ""
    return f"{len(left)} op(s) cannot be lowered to XLA: {listed}{more}"


def _legalize(device_program):
    try:
        text, left = mlir_route.to_stablehlo(device_program)
    except LegalizationError as err:  # TF's passes failed outright
        left, what = [], f"{err}"
    else:
        if not left:
            return text
        what = f"{_listing(left)}. MLIR route: {mlir_route.REASON}"
    try:
        return graph_route.to_stablehlo(device_program)
    except GraphRouteRefused as err:
        raise LegalizationError(f"{what}. Graph route not taken: {err}", left) from None
    except GraphRouteError as err:
        raise LegalizationError(f"{what}. Graph route: {err}", left) from None
