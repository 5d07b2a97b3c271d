"""Host transfers of a legalized device program become XLA host callbacks.

TensorFlow's ``xla-legalize-tf-communication`` lowers each
``tf._XlaHostComputeMlir`` to one ``stablehlo.send`` per operand (rendezvous
``<send_key>_dtoh_<i>``) and one ``stablehlo.recv`` per result
(``<recv_key>_htod_<i>``), ordered by tokens: the receives wait on the
``after_all`` of the sends. XLA:CPU implements neither send nor receive, but
it can call back into Python mid-computation; :func:`rewrite` replaces each
such group by one ``stablehlo.custom_call @xla_ffi_python_cpu_callback``
taking the token, the sent values and the replica id, and producing the
token and the received values. The K-th group calls ``host_callbacks[K]``.

Groups are found per block (also inside ``stablehlo.while``/``if`` bodies):
the sends sharing a rendezvous prefix, and the receives of the same
computation (``<channel>_args`` / ``<channel>_retvals``, as TF names them;
for other names, the receives whose token comes from those sends). A group
with only sends or only receives is fine.
"""
import re
from dataclasses import dataclass, field
from typing import List, Optional

from . import _jaxlib

_KEY = re.compile(r"^(.*)_(dtoh|htod)_(\d+)$")


class HostTransferError(ValueError):
    """A device program's host transfers do not form groups tfmlir can call back for."""


@dataclass
class HostComputation:
    """One group: what the device sends (dtoh) and receives (htod)."""
    index: int
    send_key: Optional[str]
    recv_key: Optional[str]
    send_types: List[str] = field(default_factory=list)
    recv_types: List[str] = field(default_factory=list)
    # The callback returns what it was sent: a send in a while condition, whose value the
    # condition then returns, so that XLA cannot drop the call with a known trip count.
    echo: bool = False


def _rendezvous(op, jax_ir):
    attrs = op.attributes
    if "mhlo.frontend_attributes" not in attrs:
        return None
    front = jax_ir.DictAttr(attrs["mhlo.frontend_attributes"])
    if "_xla_host_transfer_rendezvous" not in front:
        return None
    match = _KEY.match(jax_ir.StringAttr(front["_xla_host_transfer_rendezvous"]).value)
    if not match:
        raise HostTransferError(f"unexpected rendezvous key on {op.name} at {op.location}")
    return match.group(1), match.group(2), int(match.group(3))


def rewrite(stablehlo_text: str, platform: str = "cpu", core=None):
    """(new StableHLO text, [HostComputation]) with every host transfer group a callback.

    `core`: in a program partitioned over several cores (model parallelism), the logical core
    whose host the callbacks talk to -- TPU host computations run on core 0 unless told
    otherwise (``XlaHostCompute``'s ``tpu_core``): each call gets that core's MAXIMAL
    sharding, as XLA's partitioner requires of side-effecting ops."""
    s = _jaxlib._load()
    jax_ir = s["jax_ir"]
    with s["jax_mlir"].make_ir_context() as context, jax_ir.Location.unknown():
        context.allow_unregistered_dialects = True
        module = jax_ir.Module.parse(stablehlo_text)
        blocks = []

        def collect(op):
            for region in op.regions:
                for block in region.blocks:
                    blocks.append(block)
            return jax_ir.WalkResult.ADVANCE

        module.operation.walk(collect)
        groups = []
        for block in blocks:
            groups.extend(_rewrite_block(block, jax_ir, len(groups), _jaxlib.callback_target(platform), core))
        module.operation.verify()
        return str(module), groups


def _rewrite_block(block, jax_ir, first_index, target, core=None):
    sends, recvs = {}, {}
    for op in block.operations:
        name = op.operation.name
        if name not in ("stablehlo.send", "stablehlo.recv"):
            continue
        found = _rendezvous(op.operation, jax_ir)
        if found is None:
            raise HostTransferError(f"{name} at {op.location} has no host rendezvous key "
                                    "(only host transfers can be rewritten)")
        key, direction, position = found
        table = sends if name == "stablehlo.send" else recvs
        table.setdefault(key, {})[position] = op.operation
    if not sends and not recvs:
        return []
    # Pair receive groups with the send group their token comes from.
    token_source = {}
    for key, by_pos in sends.items():
        for op in by_pos.values():
            token_source[op.results[0]] = key
    pairs = []
    unpaired_sends = set(sends)
    for rkey, by_pos in recvs.items():
        skey = None
        # TF's channel names pair a computation's keys: ``<channel>_args`` (sent) and
        # ``<channel>_retvals`` (received). Only when the names say nothing does the token
        # decide: it is threaded through every transfer in program order, so a receive of
        # one computation may wait on the sends of the computation before it.
        if rkey.endswith("_retvals"):
            named = rkey[:-len("_retvals")] + "_args"
            if named in sends:
                skey = named
            elif any(key.endswith("_args") for key in sends):
                pairs.append((None, rkey))
                continue
        if skey is not None:
            unpaired_sends.discard(skey)
            pairs.append((skey, rkey))
            continue
        token = by_pos[min(by_pos)].operands[0]
        producer = token.owner if not isinstance(token.owner, jax_ir.Block) else None
        candidates = [token]
        if producer is not None and producer.name == "stablehlo.after_all":
            candidates = list(producer.operands)
        for t in candidates:
            if t in token_source:
                skey = token_source[t]
                break
        if skey is not None:
            unpaired_sends.discard(skey)
        pairs.append((skey, rkey))
    pairs.extend((skey, None) for skey in sorted(unpaired_sends))
    owner = block.owner
    in_condition = (owner is not None and owner.name == "stablehlo.while"
                    and block.region == owner.regions[0])
    groups = []
    for offset, (skey, rkey) in enumerate(pairs):
        groups.append(_rewrite_group(block, jax_ir, first_index + offset, target,
                                     _ordered(sends.get(skey), skey, "dtoh") if skey else [],
                                     _ordered(recvs.get(rkey), rkey, "htod") if rkey else [],
                                     skey, rkey, echo=in_condition and rkey is None, core=core))
    return groups


def _ordered(by_pos, key, direction):
    if sorted(by_pos) != list(range(len(by_pos))):
        raise HostTransferError(f"host transfers '{key}_{direction}_*' are not numbered 0..{len(by_pos) - 1}")
    return [by_pos[i] for i in range(len(by_pos))]


def _rewrite_group(block, jax_ir, index, target, send_ops, recv_ops, skey, rkey, echo=False, core=None):
    token_type = jax_ir.Type.parse("!stablehlo.token")
    # The call takes the token the sends (or, receive-only, the receives) wait on.
    token_in = send_ops[0].operands[1] if send_ops else recv_ops[0].operands[0]
    sent_values = [op.operands[0] for op in send_ops]
    recv_types = [op.results[0].type for op in recv_ops]
    if echo:
        # A while condition's send: its token goes nowhere (the condition returns only the
        # predicate), and XLA may evaluate a loop with a known trip count without the
        # condition. The call echoes the sent values and the condition returns the echo.
        recv_types = [v.type for v in sent_values]
    anchor = recv_ops[0] if recv_ops else send_ops[-1]
    with jax_ir.InsertionPoint(anchor), anchor.location:
        replica = jax_ir.Operation.create("stablehlo.replica_id",
                                          results=[jax_ir.Type.parse("tensor<ui32>")]).result
        backend = jax_ir.DictAttr.get({"index": jax_ir.IntegerAttr.get(
            jax_ir.IntegerType.get_unsigned(64), index)})
        call = jax_ir.Operation.create(
            "stablehlo.custom_call", results=[token_type] + recv_types,
            operands=[token_in] + sent_values + [replica],
            attributes={
                "call_target_name": jax_ir.StringAttr.get(target),
                "has_side_effect": jax_ir.BoolAttr.get(True),
                "api_version": jax_ir.IntegerAttr.get(jax_ir.IntegerType.get_signless(32), 1),
                "backend_config": jax_ir.StringAttr.get(""),
                "mhlo.backend_config": backend,
            })
        if core is not None:
            call.attributes["mhlo.sharding"] = jax_ir.StringAttr.get(f"{{maximal device={core}}}")
    token_out = call.results[0]
    # Everything that waited on the group's tokens now waits on the call.
    for op in send_ops:
        op.results[0].replace_all_uses_with(token_out)
    for k, op in enumerate(recv_ops):
        op.results[0].replace_all_uses_with(call.results[k + 1])
        op.results[1].replace_all_uses_with(token_out)
    if echo:
        terminator = list(block.operations)[-1].operation
        for k, value in enumerate(sent_values):
            for i in range(len(terminator.operands)):
                if terminator.operands[i] == value:
                    terminator.operands[i] = call.results[k + 1]
    for op in recv_ops + send_ops:
        op.erase()
    _erase_dead_after_all(block)
    return HostComputation(index, skey, rkey, [str(v.type) for v in sent_values], [str(t) for t in recv_types],
                           echo=echo)


def _erase_dead_after_all(block):
    changed = True
    while changed:
        changed = False
        for op in list(block.operations):
            if op.operation.name == "stablehlo.after_all" and not list(op.results[0].uses):
                op.operation.erase()
                changed = True
