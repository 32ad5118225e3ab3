"""
Splits a ReasonTrace transfer (docs/data/drivers/ReasonTrace.java) into windows of 64 blocks
and prints, per kind of window (raw: every block raw; few: 1-7 blocks above raw; mix: 8 or
more), how many there were and the input rate they delivered (MB/s), then the transfer's
time (ms):

    python3 docs/data/drivers/mixwindows.py /tmp/r-2.txt /tmp/r-3.txt
"""
import re
import sys

BLOCK_MB = 0.131072
WINDOW = 64

for path in sys.argv[1:]:
    rows = []
    for line in open(path):
        m = re.search(r't=\s*([\d.]+) r(\d)->(\d)', line)
        if m:
            rows.append((float(m.group(1)), int(m.group(2))))
    kinds = {}
    for i in range(0, len(rows) - WINDOW, WINDOW):
        window = rows[i:i + WINDOW]
        millis = rows[i + WINDOW][0] - rows[i][0]
        above = sum(1 for r in window if r[1] > 0)
        kind = 'raw' if above == 0 else ('few' if above < 8 else 'mix')
        k = kinds.setdefault(kind, [0, 0.0])
        k[0] += 1
        k[1] += millis
    summary = {kind: (n, round(n * WINDOW * BLOCK_MB / (ms / 1e3))) for kind, (n, ms) in kinds.items()}
    print(path, summary, 'total ms', rows[-1][0])
