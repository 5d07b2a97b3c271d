"""tfmlir's OpSharding encoding/decoding against the protobuf classes TensorFlow ships."""
import importlib.util
import os

import pytest

from tfmlir.shapes import xla_protos


def _xla_data_pb2():
    try:
        import google.protobuf  # noqa: F401
        spec = importlib.util.find_spec("tensorflow")
    except ImportError:
        spec = None
    if spec is None or not spec.submodule_search_locations:
        pytest.skip("tensorflow's xla_data_pb2 is not installed")
    path = os.path.join(list(spec.submodule_search_locations)[0], "compiler", "xla", "xla_data_pb2.py")
    if not os.path.exists(path):
        pytest.skip("tensorflow's xla_data_pb2 is not installed")
    # Loaded on its own: importing the tensorflow package is not needed for a message class.
    module_spec = importlib.util.spec_from_file_location("_xla_data_pb2_for_test", path)
    module = importlib.util.module_from_spec(module_spec)
    module_spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("device", [0, 1, 7, 127, 128, 300, 70000])
def test_assign_device_matches_protobuf(device):
    pb = _xla_data_pb2()
    expected = pb.OpSharding(type=pb.OpSharding.MAXIMAL, tile_assignment_dimensions=[1],
                             tile_assignment_devices=[device])
    assert xla_protos.assign_device_sharding(device) == expected.SerializeToString()


def test_decode_and_debug_string_match_protobuf():
    pb = _xla_data_pb2()
    message = pb.OpSharding(type=pb.OpSharding.OTHER, tile_assignment_dimensions=[4, 1, 2],
                            tile_assignment_devices=list(range(8)), replicate_on_last_tile_dim=True,
                            last_tile_dims=[pb.OpSharding.MANUAL])
    decoded = xla_protos.OpSharding(message.SerializeToString())
    assert decoded.type == 3
    assert decoded.tile_assignment_dimensions == [4, 1, 2]
    assert decoded.replicate_on_last_tile_dim
    assert decoded.text_format() == str(message)
    assert decoded.debug_string() == xla_protos.DEBUG_STRING_MARKER + "\n" + str(message)


def test_human_readable_shardings():
    iota = xla_protos.decode_sharding(b"{devices=[2,2]<=[2,2]T(1,0)}")
    explicit = xla_protos.decode_sharding(b"{devices=[2,2]0,2,1,3}")
    assert xla_protos.same_sharding(iota, explicit)
    assert not xla_protos.same_sharding(iota, xla_protos.decode_sharding(b"{devices=[2,2]0,1,2,3}"))
    assert xla_protos.decode_sharding(b"{maximal device=1}").type == xla_protos.SHARDING_MAXIMAL
    assert xla_protos.decode_sharding(b"").type == xla_protos.SHARDING_REPLICATED
    assert xla_protos.decode_sharding(b"\x01\x02\x03") is None
