#!/usr/bin/env bash
# Order-balanced A/B: base (dd4fe29) and new jars in turn, A B B A A B B A.
set -euo pipefail
out=/tmp/fire/ab
i=0
for v in base new new base base new new base; do
  i=$((i+1))
  echo "== round $i $v $(date +%T)"
  java -jar /tmp/fire/$v-benchmarks.jar 'DriverFireBenchmark.dueAtOnce' -p impl=HOURGLASS_HIERARCHICAL_WHEEL -p n=1000000 \
    -f 1 -wi 1 -i 3 -jvmArgsAppend "-Xms4g -Xmx4g -XX:+AlwaysPreTouch" -rf json -rff $out/fire-$i-$v.json > $out/fire-$i-$v.log 2>&1
  java -jar /tmp/fire/$v-benchmarks.jar 'DriverRequestTimeoutBenchmark' -p impl=HOURGLASS_HIERARCHICAL_WHEEL -p n=10000 \
    -f 1 -wi 2 -w 1s -i 3 -r 1s -jvmArgsAppend "-Xms4g -Xmx4g -XX:+AlwaysPreTouch" -rf json -rff $out/req-$i-$v.json > $out/req-$i-$v.log 2>&1
done
echo "== done $(date +%T)"
