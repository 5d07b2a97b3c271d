"""The iteration order of LLVM's ``StringMap``, for passes whose TF original iterates one.

TF's passes sometimes report the first problem found while iterating an
``llvm::StringMap`` (a hash table): which one is reported then depends on the
hashes. :func:`string_map_order` gives the order in which a ``StringMap`` that
had `keys` inserted (in that order, none removed) iterates them:

* the hash of a key is the low 32 bits of XXH3-64 (seed 0, default secret) of
  its bytes (:func:`xxh3_64`);
* the table starts with 16 buckets; a key goes to bucket ``hash & (n - 1)``,
  probing quadratically (``+1, +2, +3 ...``) past occupied buckets;
* after an insertion that leaves more than 3/4 of the buckets used, the
  table doubles and the entries are re-placed in bucket order of the old table;
* iteration is in bucket order.
"""

__all__ = ["string_map_order", "xxh3_64"]

_MASK64 = (1 << 64) - 1

_PRIME32_1 = 0x9E3779B1
_PRIME32_2 = 0x85EBCA77
_PRIME32_3 = 0xC2B2AE3D
_PRIME64_1 = 0x9E3779B185EBCA87
_PRIME64_2 = 0xC2B2AE3D27D4EB4F
_PRIME64_3 = 0x165667B19E3779F9
_PRIME64_4 = 0x85EBCA77C2B2AE63
_PRIME64_5 = 0x27D4EB2F165667C5
_PRIME_MX1 = 0x165667919E3779F9
_PRIME_MX2 = 0x9FB21C651E98DF25

# XXH3's default secret (192 bytes of pseudorandom data from FARSH).
_SECRET = bytes.fromhex(
    "b8fe6c3923a44bbe7c01812cf721ad1cded46de9839097db7240a4a4b7b3671f"
    "cb79e64eccc0e578825ad07dccff7221b8084674f743248ee03590e6813a264c"
    "3c2852bb91c300cb88d0658b1b532ea371644897a20df94e3819ef46a9deacd8"
    "a8fa763fe39c343ff9dcbbc7c70b4f1d8a51e04bcdb45931c89f7ec9d9787364"
    "eac5ac8334d3ebc3c581a0fffa1363eb170ddd51b7f0da49d316552629d4689e"
    "2b16be587d47a1fc8ff8b8d17ad031ce45cb3a8f95160428afd7fbcabb4b407e")
_STRIPE_LEN = 64
_SECRET_CONSUME_RATE = 8


def _u32(data, offset):
    return int.from_bytes(data[offset:offset + 4], "little")


def _u64(data, offset):
    return int.from_bytes(data[offset:offset + 8], "little")


def _rotl64(value, bits):
    return ((value << bits) | (value >> (64 - bits))) & _MASK64


def _swap32(value):
    return int.from_bytes(value.to_bytes(4, "little"), "big")


def _swap64(value):
    return int.from_bytes(value.to_bytes(8, "little"), "big")


def _mul128_fold64(lhs, rhs):
    product = lhs * rhs
    return (product & _MASK64) ^ (product >> 64)


def _xxh64_avalanche(value):
    value ^= value >> 33
    value = (value * _PRIME64_2) & _MASK64
    value ^= value >> 29
    value = (value * _PRIME64_3) & _MASK64
    return value ^ (value >> 32)


def _avalanche(value):
    value ^= value >> 37
    value = (value * _PRIME_MX1) & _MASK64
    return value ^ (value >> 32)


def _mix16(data, offset, secret_offset):
    lhs = _u64(_SECRET, secret_offset) ^ _u64(data, offset)
    rhs = _u64(_SECRET, secret_offset + 8) ^ _u64(data, offset + 8)
    return _mul128_fold64(lhs, rhs)


def _short(data):
    length = len(data)
    if length > 8:
        low = (_u64(_SECRET, 24) ^ _u64(_SECRET, 32)) ^ _u64(data, 0)
        high = (_u64(_SECRET, 40) ^ _u64(_SECRET, 48)) ^ _u64(data, length - 8)
        acc = (length + _swap64(low) + high + _mul128_fold64(low, high)) & _MASK64
        return _avalanche(acc)
    if length >= 4:
        combined = _u32(data, length - 4) | (_u32(data, 0) << 32)
        acc = (_u64(_SECRET, 8) ^ _u64(_SECRET, 16)) ^ combined
        acc ^= _rotl64(acc, 49) ^ _rotl64(acc, 24)
        acc = (acc * _PRIME_MX2) & _MASK64
        acc ^= (acc >> 35) + length
        acc = (acc * _PRIME_MX2) & _MASK64
        return acc ^ (acc >> 28)
    if length:
        combined = (data[0] << 16) | (data[length >> 1] << 24) | data[length - 1] | (length << 8)
        return _xxh64_avalanche(combined ^ (_u32(_SECRET, 0) ^ _u32(_SECRET, 4)))
    return _xxh64_avalanche(_u64(_SECRET, 56) ^ _u64(_SECRET, 64))


def _medium(data):
    length = len(data)
    acc = (length * _PRIME64_1) & _MASK64
    acc += _mix16(data, 0, 0)
    end = _mix16(data, length - 16, 16)
    if length > 32:
        acc += _mix16(data, 16, 32)
        end += _mix16(data, length - 32, 48)
        if length > 64:
            acc += _mix16(data, 32, 64)
            end += _mix16(data, length - 48, 80)
            if length > 96:
                acc += _mix16(data, 48, 96)
                end += _mix16(data, length - 64, 112)
    return _avalanche((acc + end) & _MASK64)


def _long_medium(data):
    length = len(data)
    acc = (length * _PRIME64_1) & _MASK64
    for i in range(8):
        acc += _mix16(data, 16 * i, 16 * i)
    acc = _avalanche(acc & _MASK64)
    for i in range(8, length // 16):
        acc += _mix16(data, 16 * i, 16 * (i - 8) + 3)
    acc += _mix16(data, length - 16, 136 - 17)
    return _avalanche(acc & _MASK64)


def _accumulate_stripe(acc, data, offset, secret_offset):
    for i in range(8):
        value = _u64(data, offset + 8 * i)
        keyed = value ^ _u64(_SECRET, secret_offset + 8 * i)
        acc[i ^ 1] = (acc[i ^ 1] + value) & _MASK64
        acc[i] = (acc[i] + (keyed & 0xFFFFFFFF) * (keyed >> 32)) & _MASK64


def _long(data):
    length = len(data)
    secret_size = len(_SECRET)
    stripes_per_block = (secret_size - _STRIPE_LEN) // _SECRET_CONSUME_RATE
    block_len = _STRIPE_LEN * stripes_per_block
    blocks = (length - 1) // block_len
    acc = [_PRIME32_3, _PRIME64_1, _PRIME64_2, _PRIME64_3, _PRIME64_4, _PRIME32_2, _PRIME64_5,
           _PRIME32_1]
    for block in range(blocks):
        for stripe in range(stripes_per_block):
            _accumulate_stripe(acc, data, block * block_len + stripe * _STRIPE_LEN,
                               stripe * _SECRET_CONSUME_RATE)
        scramble = secret_size - _STRIPE_LEN
        for i in range(8):
            value = acc[i] ^ (acc[i] >> 47)
            value ^= _u64(_SECRET, scramble + 8 * i)
            acc[i] = (value * _PRIME32_1) & _MASK64
    stripes = (length - 1 - block_len * blocks) // _STRIPE_LEN
    for stripe in range(stripes):
        _accumulate_stripe(acc, data, blocks * block_len + stripe * _STRIPE_LEN,
                           stripe * _SECRET_CONSUME_RATE)
    _accumulate_stripe(acc, data, length - _STRIPE_LEN, secret_size - _STRIPE_LEN - 7)
    result = (length * _PRIME64_1) & _MASK64
    for i in range(4):
        result += _mul128_fold64(acc[2 * i] ^ _u64(_SECRET, 11 + 16 * i),
                                 acc[2 * i + 1] ^ _u64(_SECRET, 11 + 16 * i + 8))
    return _avalanche(result & _MASK64)


def xxh3_64(data):
    """XXH3-64 of `data` (bytes) with seed 0 and the default secret (LLVM's ``xxh3_64bits``)."""
    data = bytes(data)
    length = len(data)
    if length <= 16:
        return _short(data)
    if length <= 128:
        return _medium(data)
    if length <= 240:
        return _long_medium(data)
    return _long(data)


def string_map_order(keys):
    """The keys (bytes, distinct) of an ``llvm::StringMap`` they were inserted into in the given
    order, in the map's iteration order."""
    size = 16
    table = [None] * size  # bucket -> (hash, key)
    count = 0
    for key in keys:
        full = xxh3_64(key) & 0xFFFFFFFF
        bucket = _free_bucket(table, full & (size - 1), size)
        table[bucket] = (full, key)
        count += 1
        if count * 4 > size * 3:
            size *= 2
            grown = [None] * size
            for entry in table:
                if entry is not None:
                    grown[_free_bucket(grown, entry[0] & (size - 1), size)] = entry
            table = grown
    return [entry[1] for entry in table if entry is not None]


def _free_bucket(table, bucket, size):
    probe = 1
    while table[bucket] is not None:
        bucket = (bucket + probe) & (size - 1)
        probe += 1
    return bucket
