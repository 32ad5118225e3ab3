#!/usr/bin/env python3
"""Summary figures of one whole link-benchmark run, from its CSV (docs/data/link-results-runN.csv):

    python3 docs/data/drivers/runsummary.py docs/data/link-results-run36.csv

Prints the geometric mean of the default's and AdOC's rule's time over the best fixed choice's
(outside the unthrottled row, and over every cell), and for each unthrottled cell the default
over the stream pinned to raw, the pinned stream over plain raw, and plain raw's time over the
default's. "Fixed choices" are plain raw and every fixed:N contender, as in the harness's table.
"""
import csv
import math
import sys


def geomean(values):
    return math.exp(sum(math.log(v) for v in values) / len(values))


cells = {}
for row in csv.DictReader(open(sys.argv[1])):
    key = (row['scenario'], row['data'], row['rate'])
    cells.setdefault(key, {})[row['contender']] = float(row['seconds'])

over_best = {}
for key, seconds in cells.items():
    best = min(v for k, v in seconds.items() if k == 'raw' or k.startswith('fixed:'))
    over_best[key] = (seconds['default'] / best, seconds['adoc'] / best)

throttled = [r for k, r in over_best.items() if k[2] != 'unthrottled']
print(f"default over best fixed, {len(throttled)} cells outside the unthrottled row: "
      f"{geomean([d for d, _ in throttled]):.3f}")
print(f"over all {len(over_best)} cells: default {geomean([d for d, _ in over_best.values()]):.3f}, "
      f"adoc {geomean([a for _, a in over_best.values()]):.3f}")
for key, seconds in cells.items():
    if key[2] == 'unthrottled':
        pinned = seconds['fixed:0 raw']
        print(f"unthrottled {key[1]:9} default/pinned {seconds['default'] / pinned:.3f}  "
              f"pinned/plain raw {pinned / seconds['raw']:.3f}  "
              f"plain raw/default {seconds['raw'] / seconds['default']:.3f}")
