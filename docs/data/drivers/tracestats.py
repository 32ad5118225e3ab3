#!/usr/bin/env python3
"""Figures read from ReasonTrace's per-block traces (docs/data/drivers/ReasonTrace.java).

    python3 docs/data/drivers/tracestats.py startup TRACE...   how long the start-up took: blocks up to the
                                                             first 200 raw blocks in a row, their time, and
                                                             that time at the pace of the rest
    python3 docs/data/drivers/tracestats.py rawspans TRACE     raw's pace over each 50 ms of raw blocks the writer
                                                             wrote itself back to back, and the share of it in writes
    python3 docs/data/drivers/tracestats.py guesses TRACE...   blocks on a guessed estimate, dither decisions (why=4)
                                                             and those on a guess, the top guess
    python3 docs/data/drivers/tracestats.py episodes TRACE...  episodes of blocks not raw (runs of them less than 20
                                                             blocks apart): each one's blocks not raw, span and time
                                                             over raw's pace around it (the median raw block within
                                                             300 blocks), and the block at which the goodput of the
                                                             dither around raw (D0) was first measured
"""
import re
import statistics
import sys

LINE = re.compile(r'\s*(\d+) t=\s*([\d.]+) r(\d)->(\d) why=(\d) fifo=\s*(\d+) wait=\s*(\d+) dw=\s*(\d+) link=\s*([\d.NaN]+)(G?)')
DITHER = re.compile(r'D0=\s*(\S+)@')
BLOCK = 131072


def rows(path):
    out = []
    for line in open(path):
        m = LINE.match(line)
        if m:
            d0 = DITHER.search(line)
            out.append(dict(block=int(m[1]), ms=float(m[2]), rung=int(m[3]), why=int(m[5]),
                            dw=int(m[8]), link=m[9], guessed=m[10] == 'G', d0=d0[1] if d0 else 'NaN'))
    return out


def startup(path):
    r = rows(path)
    run, end = 0, None
    for x in r:
        run = run + 1 if x['rung'] == 0 else 0
        if run == 200:
            end = x['block'] - 199
            break
    t_end = next(x['ms'] for x in r if x['block'] == end)
    pace = (len(r) - end) / (r[-1]['ms'] - t_end)
    before = sum(1 for x in r if x['block'] < end and x['rung'] != 0)
    total = sum(1 for x in r if x['rung'] != 0)
    print(f"{path}: start-up to block {end} in {t_end:.1f} ms ({before} not raw; at the later pace "
          f"{end / pace:.1f} ms); whole {r[-1]['ms']:.1f} ms, {total} blocks not raw")


def rawspans(path):
    r = rows(path)
    start = None
    for prev, x in zip(r, r[1:]):
        if x['rung'] == 0 and x['dw'] > 0:
            if start is None:
                start, dw, n = prev['ms'], 0, 0
            dw += x['dw']
            n += 1
            if x['ms'] - start >= 50:
                span = x['ms'] - start
                print(f"{path} block {x['block']}: raw's pace {n * BLOCK / (span * 1e6):.2f} GB/s, "
                      f"share in writes {dw / 1e3 / span:.2f}")
                start = None
        else:
            start = None


def guesses(path):
    r = rows(path)
    dithers = [x for x in r if x['why'] == 4]
    top = max(float(x['link']) for x in r if x['guessed'])
    print(f"{path}: {sum(x['guessed'] for x in r)} of {len(r)} blocks on a guessed estimate; "
          f"{len(dithers)} dither decisions, {sum(x['guessed'] for x in dithers)} on a guess; top guess {top:.1f} MB/s")


def episodes(path):
    r = rows(path)
    dt = [b['ms'] - a['ms'] for a, b in zip(r, r[1:])]
    spans = []
    for i, x in enumerate(r[:-1]):
        if x['rung'] != 0:
            if spans and i - spans[-1][1] < 20:
                spans[-1][1] = i
                spans[-1][2] += 1
            else:
                spans.append([i, i, 1])
    described = []
    for first, last, n in spans:
        end = min(last + 2, len(r) - 1)
        around = [dt[i] for i in range(max(0, first - 300), min(len(dt), end + 300))
                  if (i < first or i >= end) and r[i]['rung'] == 0]
        pace = statistics.median(around) if around else 0
        extra = r[end]['ms'] - r[first]['ms'] - (end - first) * pace
        described.append((r[first]['block'], r[last]['block'], n, extra))
    d0 = next((x['block'] for x in r if x['d0'] != 'NaN'), None)
    startup = sum(e for b, _, _, e in described if b == 0)
    later = [d for d in described if d[0] != 0]
    print(f"{path}: {r[-1]['ms']:.0f} ms; start-up {startup:.1f} ms over raw's pace; {len(later)} later episodes, "
          f"{sum(d[3] for d in later):.1f} ms over it; dither around raw first measured at block {d0}")
    print('    ' + ' '.join(f"{b}-{e}:{n}/{x:+.1f}ms" for b, e, n, x in later))


if __name__ == '__main__':
    command, paths = sys.argv[1], sys.argv[2:]
    for p in paths:
        {'startup': startup, 'rawspans': rawspans, 'guesses': guesses, 'episodes': episodes}[command](p)
