#!/usr/bin/env bash
# G1 (default) against Parallel GC, request timeouts at 1e4, order alternating
jar=/work/main/hourglass-bench/target/benchmarks.jar
run() { # name gcflags
  java -jar $jar DriverRequestTimeoutBenchmark -p impl=HOURGLASS_HIERARCHICAL_WHEEL,NETTY_HASHED_WHEEL -p n=10000 \
    -f 6 -wi 2 -w 1s -i 3 -r 1s -jvmArgsAppend "-Xms4g -Xmx4g -XX:+AlwaysPreTouch $2" -rf json -rff $1.json > $1.log 2>&1
}
run r1-g1 ""; run r1-par "-XX:+UseParallelGC"
run r2-par "-XX:+UseParallelGC"; run r2-g1 ""
run r3-g1 ""; run r3-par "-XX:+UseParallelGC"
echo done
