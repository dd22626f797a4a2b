cd /work/main
out=docs/runs/2026-11-27p-machine-state
jar=/tmp/dear/runp.jar
jvm="-Xms4g -Xmx4g -XX:+AlwaysPreTouch"
{ date -u; uname -a; nproc; grep -m1 "model name" /proc/cpuinfo; java -version 2>&1; uptime; } > $out/machine.txt
echo "== request-timeouts $(date +%T)"
java -jar $jar DriverRequestTimeoutBenchmark -p impl=HOURGLASS_HIERARCHICAL_WHEEL,HOURGLASS_EXECUTOR,HOURGLASS_NETTY_ADAPTER,NETTY_HASHED_WHEEL,JDK_STPE_REMOVE_ON_CANCEL -p n=10000,1000000 -f 5 -wi 2 -w 1s -i 3 -r 1s -jvmArgsAppend "$jvm" -rf json -rff $out/request-timeouts.json > $out/request-timeouts.log 2>&1
echo "== fire $(date +%T)"
java -jar $jar 'DriverFireBenchmark.dueAtOnce' -p impl=HOURGLASS_HIERARCHICAL_WHEEL,HOURGLASS_HASHED_WHEEL,HOURGLASS_SORTED_HASHED_WHEEL,HOURGLASS_SIMPLE_WHEEL,NETTY_HASHED_WHEEL,JDK_STPE_REMOVE_ON_CANCEL -p n=1000000 -f 5 -wi 1 -i 3 -jvmArgsAppend "$jvm" -rf json -rff $out/fire.json > $out/fire.log 2>&1
uptime >> $out/machine.txt
echo "== done $(date +%T)"
