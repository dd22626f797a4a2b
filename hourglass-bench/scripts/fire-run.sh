#!/usr/bin/env bash
# Issue 11's firing figures: n timeouts due at once (1e5 and 1e6) on every Hourglass wheel (1 ms
# tick) beside Netty 4.2's HashedWheelTimer and the JDK's ScheduledThreadPoolExecutor, one JMH
# invocation, 3 forks, -Xms = -Xmx and -XX:+AlwaysPreTouch.
# Usage: hourglass-bench/scripts/fire-run.sh [output folder]   (after
# mvn -B -DskipTests package -pl hourglass-bench -am); run it on a quiet machine (about 10 minutes),
# then hourglass-bench/scripts/fire-table.py FOLDER/fire.json prints the table.
set -euo pipefail
cd "$(dirname "$0")/../.."
jar=hourglass-bench/target/benchmarks.jar
out=${1:-runs/fire-$(date +%F)}
mkdir -p "$out"
{ date -u; uname -a; nproc; grep -m1 "model name" /proc/cpuinfo; java -version 2>&1; uptime; } > "$out/machine.txt"
echo "== fire $(date +%T)"
java -jar "$jar" 'DriverFireBenchmark.dueAtOnce' \
  -p impl=HOURGLASS_HIERARCHICAL_WHEEL,HOURGLASS_HASHED_WHEEL,HOURGLASS_SORTED_HASHED_WHEEL,HOURGLASS_SIMPLE_WHEEL,NETTY_HASHED_WHEEL,JDK_STPE_REMOVE_ON_CANCEL \
  -p n=100000,1000000 -f 3 -wi 1 -i 3 -jvmArgsAppend "-Xms4g -Xmx4g -XX:+AlwaysPreTouch" \
  -rf json -rff "$out/fire.json" > "$out/fire.log" 2>&1
uptime >> "$out/machine.txt"
echo "== done $(date +%T): $out"
