#!/usr/bin/env python3
"""Where the `history` contender stands beside the default and native `zstd --adapt`, from
invocations of the link benchmark written by ab.sh with those three contenders:

    docs/data/drivers/ab.sh 2 /tmp/ab/H json,text,binary,random,changing \\
        1mbit,10mbit,100mbit,1gbit,10gbit,unlimited 'default,history,zstd --adapt' benchmarks.jar
    python3 docs/data/drivers/historystanding.py /tmp/ab/H-benchmarks 2

reads PREFIX1 ... PREFIXN (each a `link --out` directory) and prints, per cell, each contender's
seconds in every invocation (the harness's median of its transfers), the ratios of their medians
over the invocations (h/d: history over default, d/z and h/z: over zstd --adapt) and the wire
bytes of the first invocation; then in how many cells each of the default and the history beats
zstd --adapt (ratio below 1) and the geometric mean of h/d.
"""
import csv
import math
import statistics
import sys

CONTENDERS = ('default', 'history', 'zstd --adapt')


def load(directory):
    cells = {}
    with open(directory + '/link-results.csv') as f:
        for row in csv.DictReader(f):
            if row['scenario'] == 'rate':
                cells.setdefault((row['data'], row['rate']), {})[row['contender']] = (
                    float(row['seconds']), int(row['wire_bytes']))
    return cells


prefix, n = sys.argv[1], int(sys.argv[2])
runs = [load(f"{prefix}{i}") for i in range(1, n + 1)]
beats = {'default': 0, 'history': 0}
hd = []
for cell in runs[0]:
    seconds = {c: [r[cell][c][0] for r in runs] for c in CONTENDERS}
    median = {c: statistics.median(s) for c, s in seconds.items()}
    ratios = {'h/d': median['history'] / median['default'], 'd/z': median['default'] / median['zstd --adapt'],
              'h/z': median['history'] / median['zstd --adapt']}
    beats['default'] += ratios['d/z'] < 1
    beats['history'] += ratios['h/z'] < 1
    hd.append(ratios['h/d'])
    times = '  '.join(f"{c} " + ' '.join(f"{s:7.3f}" for s in seconds[c]) for c in CONTENDERS)
    wire = ' '.join(f"{c[0]} {runs[0][cell][c][1] / 1e6:8.2f}" for c in CONTENDERS)
    print(f"{cell[0]:8} {cell[1]:13} {times} | " + '  '.join(f"{k} {v:5.2f}" for k, v in ratios.items())
          + f" | wire MB {wire}")
print(f"zstd --adapt beaten in {beats['default']} of {len(hd)} cells by the default, {beats['history']} by the history; "
      f"history over default, geometric mean {math.exp(sum(map(math.log, hd)) / len(hd)):.3f}")
