#!/usr/bin/env python3
"""Compares two builds' side-by-side link benchmark invocations, as written by ab.sh.

    python3 docs/data/drivers/abcompare.py PREFIX N A B CONTENDER [OVER]

reads PREFIX-A1 ... PREFIX-AN and PREFIX-B1 ... PREFIX-BN (each a `link --out` directory, A and B
being the jar names without .jar) and prints, per cell, CONTENDER's seconds in each invocation
(the harness's median of its transfers), the ratio of B's median to A's, and the wire bytes of
each build's first invocation; then the geometric mean of the ratios. With OVER (another
contender of the same invocations, e.g. `default`), it prints instead each build's median of
CONTENDER over its median of OVER, so that the two builds' gaps can be set side by side.
"""
import csv
import math
import statistics
import sys


def load(directory):
    cells = {}
    with open(directory + '/link-results.csv') as f:
        for row in csv.DictReader(f):
            cells[(row['data'], row['rate'], row['contender'])] = (float(row['seconds']), int(row['wire_bytes']))
    return cells


def geomean(values):
    return math.exp(sum(map(math.log, values)) / len(values))


def main(prefix, n, a, b, contender, over=None):
    runs = {name: [load(f'{prefix}-{name}{i}') for i in range(1, n + 1)] for name in (a, b)}
    ratios = []
    for key in runs[a][0]:
        data, rate, name = key
        if name != contender:
            continue
        secs = {build: [run[key][0] for run in runs[build]] for build in (a, b)}
        if over is None:
            ratio = statistics.median(secs[b]) / statistics.median(secs[a])
            ratios.append(ratio)
            wire = ' '.join(f'{runs[build][0][key][1] / 1e6:.1f}' for build in (a, b))
            print(f"{data:9}{rate:14}{a} {' '.join(f'{s:.3f}' for s in secs[a])} | "
                  f"{b} {' '.join(f'{s:.3f}' for s in secs[b])}  {ratio:.2f}  wire {wire} MB")
        else:
            other = (data, rate, over)
            gaps = [statistics.median(secs[build]) / statistics.median([run[other][0] for run in runs[build]])
                    for build in (a, b)]
            ratios.append(gaps[1] / gaps[0])
            print(f"{data:9}{rate:14}{contender}/{over}  {a} {gaps[0]:.2f}   {b} {gaps[1]:.2f}")
    print(f"geometric mean of {b} over {a}: {geomean(ratios):.3f}")


if __name__ == '__main__':
    args = sys.argv[1:]
    if len(args) not in (5, 6):
        sys.exit(__doc__)
    main(args[0], int(args[1]), args[2], args[3], args[4], args[5] if len(args) == 6 else None)
