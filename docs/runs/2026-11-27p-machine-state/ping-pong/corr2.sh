jar=/tmp/dear/head.jar
for r in $(seq 1 16); do
  pp1=$(java -cp . PingPong2 4 | awk '{printf "%s ", $2}')
  java -jar $jar DriverRequestTimeoutBenchmark -p impl=HOURGLASS_HIERARCHICAL_WHEEL -p n=10000 -f 1 -wi 2 -w 1s -i 3 -r 1s -jvmArgsAppend "-Xms4g -Xmx4g -XX:+AlwaysPreTouch" > c2-$r.log 2>&1
  pp2=$(java -cp . PingPong2 4 | awk '{printf "%s ", $2}')
  it=$(grep -E "^Iteration" c2-$r.log | awk '{printf "%s ", $3}')
  echo "$r | $pp1 | $it | $pp2"
done
