package dev.hourglass.examples.lettuce;

import dev.hourglass.netty.NettyTimers;
import dev.hourglass.patterns.FutureTimeouts;
import dev.hourglass.timer.Timer;
import dev.hourglass.timer.TimerStats;
import dev.hourglass.timer.Timers;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.resource.ClientResources;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One Hourglass timer serving both Lettuce's command timeouts and the application's own request
 * timeouts. Each request reads a counter from Redis, then works for a while; it must answer within
 * {@link #REQUEST_TIMEOUT}, else it is answered with a timeout (the application's timeout, on the
 * shared timer). A {@code BLPOP} that Redis holds for two seconds shows Lettuce's {@link
 * #COMMAND_TIMEOUT} firing on the same timer. Needs a Redis server.
 *
 * <pre>
 * java ... dev.hourglass.examples.lettuce.SharedTimerExample [host [port]]
 * </pre>
 */
public final class SharedTimerExample {

    /** Lettuce's command timeout. */
    static final Duration COMMAND_TIMEOUT = Duration.ofMillis(500);

    /** The application's own deadline for a request, Redis round trip included. */
    static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(1);

    /**
     * How long each request's work takes: the first two answer in time, the last two do not (wide
     * margins, so that a busy machine changes no outcome).
     */
    static final List<Duration> WORK =
            List.of(Duration.ZERO, Duration.ofMillis(100), Duration.ofSeconds(3), Duration.ofSeconds(4));

    private static final long AWAIT_SECONDS = 30;

    private SharedTimerExample() {}

    /**
     * Runs the example against a Redis server.
     *
     * @param args the server's host and port, by default 127.0.0.1 and 6379
     * @throws Exception if the server cannot be reached
     */
    public static void main(String[] args) throws Exception {
        String host = args.length > 0 ? args[0] : "127.0.0.1";
        int port = args.length > 1 ? Integer.parseInt(args[1]) : 6379;
        run(host, port, System.out);
    }

    /**
     * Runs the requests and the long command, printing what happened to each.
     *
     * @param host the Redis server's host
     * @param port its port
     * @param out where the report goes
     * @return one line per request, then one for the long command
     * @throws Exception if the server cannot be reached
     */
    static List<String> run(String host, int port, PrintStream out) throws Exception {
        Timer timer = Timers.builder().tick(Duration.ofMillis(1)).startTimerThread();
        // Lettuce leaves a timer it was given running, so it never stops the shared one.
        ClientResources resources =
                ClientResources.builder().timer(NettyTimers.wrap(timer)).build();
        RedisClient client = RedisClient.create(resources, RedisURI.create(host, port));
        client.setOptions(ClientOptions.builder()
                .timeoutOptions(TimeoutOptions.enabled(COMMAND_TIMEOUT))
                .build());
        List<String> report = new ArrayList<>();
        try (StatefulRedisConnection<String, String> requests = client.connect();
                StatefulRedisConnection<String, String> blocking = client.connect()) {
            // connected and warm before the first request's clock starts
            requests.async().ping().get(AWAIT_SECONDS, TimeUnit.SECONDS);
            blocking.async().ping().get(AWAIT_SECONDS, TimeUnit.SECONDS);
            List<CompletableFuture<String>> answers = new ArrayList<>();
            for (int i = 0; i < WORK.size(); i++) {
                answers.add(request(timer, requests.async(), i));
            }
            for (int i = 0; i < answers.size(); i++) {
                report.add("request " + i + " (" + WORK.get(i).toMillis() + " ms of work): " + outcome(answers.get(i)));
            }
            report.add(longCommand(blocking.async()));
        } finally {
            client.shutdown();
            resources.shutdown().get(AWAIT_SECONDS, TimeUnit.SECONDS);
            TimerStats stats = timer.stats();
            timer.stop();
            report.add("the shared timer: " + stats.scheduled() + " scheduled, " + stats.fired() + " fired, "
                    + stats.cancelled() + " cancelled");
        }
        report.forEach(out::println);
        return report;
    }

    /** A request: read a counter, work, answer; the application's timeout bounds the whole. */
    private static CompletableFuture<String> request(Timer timer, RedisAsyncCommands<String, String> redis, int i) {
        CompletableFuture<String> answer = new CompletableFuture<>();
        FutureTimeouts.orTimeout(timer, answer, REQUEST_TIMEOUT);
        redis.incr("example:requests").whenComplete((count, error) -> {
            if (error != null) {
                answer.completeExceptionally(error);
                return;
            }
            // the work, simulated on the same timer; a late answer changes nothing
            timer.schedule(() -> answer.complete("answered, request number " + count), WORK.get(i));
        });
        return answer;
    }

    /** A BLPOP that Redis holds for two seconds: Lettuce gives up at its command timeout. */
    private static String longCommand(RedisAsyncCommands<String, String> redis) throws InterruptedException {
        long sent = System.nanoTime();
        CompletableFuture<?> pop = redis.blpop(2, "example:empty-list").toCompletableFuture();
        String result = outcome(pop);
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - sent);
        return "BLPOP of 2 s: " + result + " after " + millis + " ms";
    }

    private static String outcome(CompletableFuture<?> future) throws InterruptedException {
        try {
            return String.valueOf(future.get(AWAIT_SECONDS, TimeUnit.SECONDS));
        } catch (ExecutionException | CompletionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof TimeoutException) {
                return "timed out (the application's " + REQUEST_TIMEOUT.toMillis() + " ms)";
            }
            if (cause instanceof RedisCommandTimeoutException) {
                return "timed out (Lettuce's " + COMMAND_TIMEOUT.toMillis() + " ms command timeout)";
            }
            return "failed: " + cause;
        } catch (TimeoutException e) {
            return "no outcome within " + AWAIT_SECONDS + " s";
        }
    }
}
