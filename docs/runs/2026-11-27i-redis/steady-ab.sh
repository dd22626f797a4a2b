#!/bin/bash
# usage: steady-ab.sh out rounds contender build1 build2 ...  (RedisSteadyCpuMain 3 10 <contender> per build per round)
out=$1; rounds=$2; contender=$3; shift 3
echo "# $(date -u +%FT%TZ) $(nproc) cpus, load $(cut -d' ' -f1-3 /proc/loadavg), $(java -version 2>&1 | head -1), $(redis-server --version | cut -d' ' -f3)" >> $out
for r in $(seq $rounds); do for b in "$@"; do
  echo "== round $r build $b $(date -u +%T) load $(cut -d' ' -f1 /proc/loadavg)" >> $out
  java -cp $TEST_CLASSES:$b:$(cat $CP_FILE) dev.hourglass.redis.RedisSteadyCpuMain 3 10 $contender 2>&1 | grep -v SLF4J >> $out
done; done
echo "DONE $(date -u +%T)" >> $out
