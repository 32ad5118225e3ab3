#!/bin/bash
# Alternating side-by-side invocations of the link benchmark, one per jar in turn, N rounds:
#   docs/data/drivers/ab.sh N OUT_PREFIX KINDS RATES CONTENDERS JAR...
# e.g. docs/data/drivers/ab.sh 2 /tmp/ab/A2 json,text 10gbit,unlimited 'default,history' old.jar new.jar
# Round i of JAR writes OUT_PREFIX-<jar file name without .jar><i>/ (link-results.csv and the
# rest, as `benchmarks.jar link --out` does) and its progress log beside it. Run one at a time:
# two benchmarks side by side on two cores measure each other.
set -eu
n=$1; prefix=$2; kinds=$3; rates=$4; contenders=$5; shift 5
for i in $(seq 1 "$n"); do
  for jar in "$@"; do
    out="$prefix-$(basename "$jar" .jar)$i"
    java -jar "$jar" link --kinds "$kinds" --rates "$rates" --no-scenarios --contenders "$contenders" \
      --out "$out" > "$out.log" 2>&1
  done
done
