run() { java -jar $2 DriverRequestTimeoutBenchmark -p impl=HOURGLASS_HIERARCHICAL_WHEEL -p n=10000,1000000 \
    -f 6 -wi 2 -w 1s -i 3 -r 1s -jvmArgsAppend "-Xms4g -Xmx4g -XX:+AlwaysPreTouch" -rf json -rff $1.json > $1.log 2>&1; }
run p1-pad pad.jar; run p1-head head.jar
run p2-head head.jar; run p2-pad pad.jar
run p3-pad pad.jar; run p3-head head.jar
echo done
