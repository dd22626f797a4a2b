#!/bin/bash
# usage: steady-abba.sh out rounds contender before after
# RedisSteadyCpuMain 3 10 <contender> for each build, rounds in alternating order (before-after,
# then after-before, ...), so that a drift of the machine favours neither build.
# Needs TEST_CLASSES (test classes folder) and CP_FILE (test class path file); builds are main classes folders.
out=$1; rounds=$2; contender=$3; before=$4; after=$5
echo "# $(date -u +%FT%TZ) $(nproc) cpus, load $(cut -d' ' -f1-3 /proc/loadavg), $(java -version 2>&1 | head -1), $(redis-server --version | cut -d' ' -f3)" >> $out
for r in $(seq $rounds); do
  if [ $((r % 2)) -eq 1 ]; then order="$before $after"; else order="$after $before"; fi
  for b in $order; do
    echo "== round $r build $(basename $b) $(date -u +%T) load $(cut -d' ' -f1 /proc/loadavg)" >> $out
    java -cp $TEST_CLASSES:$b:$(cat $CP_FILE) dev.hourglass.redis.RedisSteadyCpuMain 3 10 $contender 2>&1 | grep -v SLF4J >> $out
  done
done
echo "DONE $(date -u +%T)" >> $out
