# Run P's second pass (22:38–22:44 UTC, commit cd9dad4): request timeouts again, with the probe timed after the meter's reading.
cd /work/main
out=docs/runs/2026-11-27p-machine-state/second-pass
jar=/tmp/dear/runp2.jar   # a copy of hourglass-bench/target/benchmarks.jar built at cd9dad4
{ date -u; uptime; } > $out/machine.txt
java -jar $jar DriverRequestTimeoutBenchmark -p impl=HOURGLASS_HIERARCHICAL_WHEEL,HOURGLASS_EXECUTOR,HOURGLASS_NETTY_ADAPTER,NETTY_HASHED_WHEEL,JDK_STPE_REMOVE_ON_CANCEL -p n=10000,1000000 -f 5 -wi 2 -w 1s -i 3 -r 1s -jvmArgsAppend "-Xms4g -Xmx4g -XX:+AlwaysPreTouch" -rf json -rff $out/request-timeouts.json > $out/request-timeouts.log 2>&1
uptime >> $out/machine.txt
