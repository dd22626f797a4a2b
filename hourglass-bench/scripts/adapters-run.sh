#!/usr/bin/env bash
# Issues 11 and 13 in one run: the thread-safe Timer and its event loop, its adapters (the ScheduledExecutorService and
# Netty's Timer) and the anchors (Netty 4.2's HashedWheelTimer, the JDK's ScheduledThreadPoolExecutor)
# in each JMH invocation, 3 forks, -Xms = -Xmx and -XX:+AlwaysPreTouch; the lateness of near timers
# and the idle CPU beside 1e4 and 1e6 far ones (Hourglass with the builder's defaults); then the
# Prometheus scrape.
# Usage: hourglass-bench/scripts/adapters-run.sh [output folder]   (after
# mvn -B -DskipTests package -pl hourglass-bench -am); run it on a quiet machine, then
# hourglass-bench/scripts/cpu-table.py FOLDER/*.json prints the table with the threads' CPU added.
set -euo pipefail
cd "$(dirname "$0")/../.."
jar=hourglass-bench/target/benchmarks.jar
out=${1:-runs/adapters-$(date +%F)}
mkdir -p "$out"
jvm="-Xms4g -Xmx4g -XX:+AlwaysPreTouch"
iterations="-wi 2 -w 1s -i 3 -r 1s"
run() {
  name=$1
  shift
  echo "== $name $(date +%T)"
  java -jar "$jar" "$@" -f 3 $iterations -jvmArgsAppend "$jvm" -rf json -rff "$out/$name.json" > "$out/$name.log" 2>&1
}
{ date -u; uname -a; nproc; grep -m1 "model name" /proc/cpuinfo; java -version 2>&1; uptime; } > "$out/machine.txt"
run request-timeouts DriverRequestTimeoutBenchmark \
  -p impl=HOURGLASS_HIERARCHICAL_WHEEL,HOURGLASS_EXECUTOR,HOURGLASS_NETTY_ADAPTER,NETTY_HASHED_WHEEL,JDK_STPE_REMOVE_ON_CANCEL \
  -p n=10000,1000000
run event-loop LoopScheduleBenchmark -p n=10000,1000000
run heartbeat DriverHeartbeatBenchmark -p impl=HOURGLASS_HIERARCHICAL_WHEEL,NETTY_HASHED_WHEEL,JDK_STPE_REMOVE_ON_CANCEL -p n=1000000 -p k=10
iterations="-wi 1 -i 2" run lateness DriverLatenessBenchmark \
  -p impl=HOURGLASS_DEFAULTS,NETTY_HASHED_WHEEL,JDK_STPE_REMOVE_ON_CANCEL -p n=10000,1000000 \
  -p streamMillis=2000 -p idleMillis=1000
run scrape ScrapeBenchmark -p pending=10000,1000000
uptime >> "$out/machine.txt"
echo "== done $(date +%T): $out"
