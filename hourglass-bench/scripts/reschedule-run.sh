#!/usr/bin/env bash
# Issue 11's reschedule figure: pushing back idle timeouts in order (DriverRescheduleBenchmark, by
# a delay, at a shared clock reading, and by cancel + new) on Hourglass's timer beside Netty 4.2's HashedWheelTimer
# and the JDK's ScheduledThreadPoolExecutor, and one clock reading (ClockReadBenchmark), in one JMH
# invocation, 3 forks, -Xms = -Xmx and -XX:+AlwaysPreTouch.
# Usage: hourglass-bench/scripts/reschedule-run.sh [output folder]   (after
# mvn -B -DskipTests package -pl hourglass-bench -am); run it on a quiet machine (about 10 minutes),
# then hourglass-bench/scripts/cpu-table.py FOLDER/reschedule.json prints the table.
set -euo pipefail
cd "$(dirname "$0")/../.."
jar=hourglass-bench/target/benchmarks.jar
out=${1:-runs/reschedule-$(date +%F)}
mkdir -p "$out"
{ date -u; uname -a; nproc; grep -m1 "model name" /proc/cpuinfo; java -version 2>&1; uptime; } > "$out/machine.txt"
echo "== reschedule $(date +%T)"
java -jar "$jar" 'DriverRescheduleBenchmark|ClockReadBenchmark' \
  -p impl=HOURGLASS_HIERARCHICAL_WHEEL,NETTY_HASHED_WHEEL,JDK_STPE_REMOVE_ON_CANCEL -p n=10000,1000000 \
  -f 3 -wi 3 -w 1s -i 5 -r 1s -jvmArgsAppend "-Xms4g -Xmx4g -XX:+AlwaysPreTouch" \
  -rf json -rff "$out/reschedule.json" > "$out/reschedule.log" 2>&1
uptime >> "$out/machine.txt"
echo "== done $(date +%T): $out"
