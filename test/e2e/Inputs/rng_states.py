"""Writes rng-bit-generator states to DIR: NAME.npy (u64[n], for the
interpreter and tpuc-run alike).

usage: rng_states.py DIR

threefry: a random key, a counter whose low word is 2^32 - 3 (the 64-bit
counter add carries); philox3: a counter 2^64 - 5 (the 128-bit add carries
into the high half); philox2: a u64[2] state (the key doubles as the
counter's high half).
"""
import sys

import numpy as np

out = sys.argv[1]
states = {
    "threefry": [0x243F6A8885A308D3, 0x00000001FFFFFFFD],
    "philox3": [0x13198A2E03707344, 0xFFFFFFFFFFFFFFFB, 0xA4093822299F31D0],
    "philox2": [0x082EFA98EC4E6C89, 0x452821E638D01377],
}
for name, words in states.items():
    a = np.array(words, np.uint64)
    np.save("%s/%s.npy" % (out, name), a)
