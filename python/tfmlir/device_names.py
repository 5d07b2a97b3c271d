"""TensorFlow device names: ``DeviceNameUtils::ParseFullName`` and what is built on it.

* :func:`parse_full_name`: the parts of a device name such as
  ``/job:worker/replica:0/task:0/device:TPU:0`` (also the legacy ``/cpu:0`` and ``/gpu:0``,
  ``*`` wildcards, a bare ``/``), or None when TF does not parse it;
  :func:`parse_full_or_local_name` also takes local names (``TPU:0``).
* :func:`canonical_device`: the device string TensorFlow's GraphDef importer writes for a name
  (``ParsedNameToString`` with TF's CPU:0 defaults), or None if it does not parse.
* :func:`is_tpu_replicated_core`: TF's ``IsTPUReplicatedCore``.
* :func:`name_to_string` / :func:`is_complete_specification`: ``ParsedNameToString`` and
  ``IsCompleteSpecification``.
* :func:`merge_unset_names` / :func:`merged_device`: ``MergeUnsetDevNames`` (the tf
  dialect's inliner places inlined ops with it, through a hook the package installs).

One parser for the importer, the exporter and the passes.
"""
from dataclasses import dataclass
from typing import Optional

TPU_REPLICATED_CORE = "TPU_REPLICATED_CORE"

_UINT64_MAX = (1 << 64) - 1


@dataclass
class ParsedName:
    """The parts of a device name; ``has_*`` is False where the part is absent or ``*``."""
    has_job: bool = False
    job: str = ""
    has_replica: bool = False
    replica: int = 0
    has_task: bool = False
    task: int = 0
    has_type: bool = False
    type: str = ""
    has_id: bool = False
    id: int = 0


def _is_alpha(c):
    return ("a" <= c <= "z") or ("A" <= c <= "Z")


def _is_word(c):
    return _is_alpha(c) or ("0" <= c <= "9") or c == "_"


def _consume_name(text, pos, terminators):
    """``(name, new pos)`` of a name (a letter, then letters, digits, ``_``) running up to the
    first of `terminators` or the end, or None."""
    if pos >= len(text) or not _is_alpha(text[pos]):
        return None
    end = pos
    while end < len(text) and text[end] not in terminators:
        if not _is_word(text[end]):
            return None
        end += 1
    return text[pos:end], end


def _consume_number(text, pos):
    """``(value, new pos)`` of leading decimal digits (``str_util::ConsumeLeadingDigits``:
    none, or an overflowing uint64, fails), or None."""
    end = pos
    value = 0
    while end < len(text) and "0" <= text[end] <= "9":
        new_value = (value * 10 + ord(text[end]) - 48) & _UINT64_MAX
        if new_value // 8 < value:
            return None
        value = new_value
        end += 1
    if end == pos:
        return None
    # TF stores the uint64 into an int.
    value &= 0xFFFFFFFF
    if value >= 1 << 31:
        value -= 1 << 32
    return value, end


def parse_full_name(name) -> Optional[ParsedName]:
    """TF's ``DeviceNameUtils::ParseFullName`` of `name`, or None when it does not parse."""
    ok, parsed = _parse_full(name)
    return parsed if ok else None


def _parse_full(name):
    """(parsed?, the ParsedName as TF leaves it: filled up to where parsing stopped)."""
    parsed = ParsedName()
    if name == "/":
        return True, parsed
    pos, size = 0, len(name)

    def take(prefix):
        nonlocal pos
        if name.startswith(prefix, pos):
            pos += len(prefix)
            return True
        return False

    while pos < size:
        progress = False
        for prefix, field in (("/job:", "job"), ("/replica:", "replica"), ("/task:", "task")):
            if not take(prefix):
                continue
            present = not take("*")
            setattr(parsed, "has_" + field, present)
            if present:
                found = _consume_name(name, pos, "/") if field == "job" else _consume_number(name, pos)
                if found is None:
                    return False, parsed
                setattr(parsed, field, found[0])
                pos = found[1]
            progress = True
        if take("/device:"):
            parsed.has_type = not take("*")
            if parsed.has_type:
                found = _consume_name(name, pos, "/:")
                if found is None:
                    return False, parsed
                parsed.type, pos = found
            if not take(":"):
                parsed.has_id = False
            else:
                parsed.has_id = not take("*")
                if parsed.has_id:
                    found = _consume_number(name, pos)
                    if found is None:
                        return False, parsed
                    parsed.id, pos = found
            progress = True
        for prefixes, device_type in ((("/cpu:", "/CPU:"), "CPU"), (("/gpu:", "/GPU:"), "GPU")):
            if not (take(prefixes[0]) or take(prefixes[1])):
                continue
            parsed.has_type = True
            parsed.type = device_type
            parsed.has_id = not take("*")
            if parsed.has_id:
                found = _consume_number(name, pos)
                if found is None:
                    return False, parsed
                parsed.id, pos = found
            progress = True
        if not progress:
            return False, parsed
    return True, parsed


def parse_full_or_local_name(name):
    """TF's ``DeviceNameUtils::ParseFullOrLocalName``: ``(parsed?, ParsedName)``.

    A full name first; failing that, a local name ``TYPE:ID`` parsed on top of what the full
    parse left (TF reuses the same ParsedName), so the parts are TF's even when both fail.
    """
    ok, parsed = _parse_full(name)
    if ok:
        return True, parsed
    found = _consume_name(name, 0, "/:")
    if found is None:
        return False, parsed
    parsed.type, pos = found
    parsed.has_type = True
    if not name.startswith(":", pos):
        return False, parsed
    number = _consume_number(name, pos + 1)
    if number is None:
        return False, parsed
    parsed.id, pos = number
    parsed.has_id = True
    return pos == len(name), parsed


def is_tpu_replicated_core(name):
    """TF's ``IsTPUReplicatedCore``: `name` parses and its device type is TPU_REPLICATED_CORE."""
    parsed = parse_full_name(name)
    return parsed is not None and parsed.has_type and parsed.type == TPU_REPLICATED_CORE


def name_to_string(p):
    """TF's ``DeviceNameUtils::ParsedNameToString`` (an unknown id is ``*``)."""
    out = ""
    if p.has_job:
        out += f"/job:{p.job}"
    if p.has_replica:
        out += f"/replica:{p.replica}"
    if p.has_task:
        out += f"/task:{p.task}"
    if p.has_type:
        out += f"/device:{p.type}:{p.id if p.has_id else '*'}"
    return out


def is_complete_specification(spec, device):
    """TF's ``DeviceNameUtils::IsCompleteSpecification(spec, device)``: every part `spec` has,
    `device` has with the same value."""
    for part in ("job", "replica", "task", "type", "id"):
        if getattr(spec, "has_" + part) and (not getattr(device, "has_" + part)
                                             or getattr(spec, part) != getattr(device, part)):
            return False
    return True


def canonical_device(name):
    """The device string TensorFlow's importer writes (TF's defaults: device CPU:0 where the
    name has no device type or id), or None if `name` does not parse."""
    if not name or name == "/":
        return ""
    p = parse_full_name(name)
    if p is None:
        return None
    if not p.has_type:
        p.has_type, p.type = True, "CPU"
    if not p.has_id:
        p.has_id, p.id = True, 0
    return name_to_string(p)


def merge_unset_names(target, other):
    """TF's ``DeviceNameUtils::MergeUnsetDevNames``: `target` (a ParsedName) with every part it
    leaves unset taken from `other`; a new ParsedName."""
    merged = ParsedName(**vars(target))
    for part in ("job", "replica", "task", "type", "id"):
        if getattr(other, "has_" + part) and not getattr(merged, "has_" + part):
            setattr(merged, "has_" + part, True)
            setattr(merged, part, getattr(other, part))
    return merged


def merged_device(caller, node) -> Optional[str]:
    """The device TF's multi-device function inlining gives a body op placed on `node` in a call
    placed on `caller`: ``ParsedNameToString(MergeUnsetDevNames(node, caller))``, or None when
    either name does not parse. (The tf dialect's inliner asks this through its hook.)"""
    parsed_caller = parse_full_name(caller)
    parsed_node = parse_full_name(node)
    if parsed_caller is None or parsed_node is None:
        return None
    return name_to_string(merge_unset_names(parsed_node, parsed_caller))
