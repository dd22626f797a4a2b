#!/usr/bin/env bash
# Issue 11's focused run: the thread-safe Timer beside Netty 4.2 and the JDK, each benchmark one JMH
# invocation with every library in it, 3 forks, -Xms = -Xmx and -XX:+AlwaysPreTouch.
# Usage: hourglass-bench/scripts/timer-focused-run.sh [output folder]   (after
# mvn -B -DskipTests package -pl hourglass-bench -am); run it on a quiet machine.
set -euo pipefail
cd "$(dirname "$0")/../.."
jar=hourglass-bench/target/benchmarks.jar
out=${1:-runs/timer-focused-$(date +%F)}
mkdir -p "$out"
jvm="-Xms4g -Xmx4g -XX:+AlwaysPreTouch"
run() {
  name=$1
  shift
  echo "== $name $(date +%T)"
  java -jar "$jar" "$@" -f 3 -wi 2 -w 1s -i 3 -r 1s -jvmArgsAppend "$jvm" -rf json -rff "$out/$name.json" > "$out/$name.log" 2>&1
}
run request-timeouts DriverRequestTimeoutBenchmark -p impl=HOURGLASS_HIERARCHICAL_WHEEL,NETTY_HASHED_WHEEL,JDK_STPE_REMOVE_ON_CANCEL -p n=10000,1000000
run event-loop LoopScheduleBenchmark -p n=10000,1000000
run heartbeat DriverHeartbeatBenchmark -p impl=HOURGLASS_HIERARCHICAL_WHEEL,NETTY_HASHED_WHEEL,JDK_STPE_REMOVE_ON_CANCEL -p n=1000000 -p k=10
echo "== done $(date +%T): $out"
