package dev.hourglass.redis;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Pipeline;
import redis.clients.jedis.Response;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.exceptions.JedisNoScriptException;

/**
 * Runs {@link Script}s by EVALSHA (the node loads them all at start); when the server answers
 * NOSCRIPT, as it does after a restart or a SCRIPT FLUSH, loads the script (SCRIPT LOAD) and runs it
 * again. A script that answered NOSCRIPT did not run, so running it again is always correct. Writes
 * are followed, in the same pipeline, by the {@link WriteWait} of the node's durability.
 *
 * <p>Complexity: one round trip per call, or per pipeline of calls (two when scripts must be
 * reloaded). Ordering: pipelined calls run in the order given. Thread-safety: stateless; the
 * {@link Jedis} connection passed in must not be shared while in use.
 */
final class ScriptRunner {
    private ScriptRunner() {}

    /** One script call: the script, the shard's keys and the arguments. */
    record Call(Script script, List<byte[]> keys, List<byte[]> args) {}

    /**
     * Runs one script that only reads (no durability wait).
     *
     * @param jedis the connection
     * @param call what to run
     * @return the script's reply
     */
    static Object run(Jedis jedis, Call call) {
        try {
            return jedis.evalsha(call.script().sha(), call.keys(), call.args());
        } catch (JedisDataException e) {
            if (!isNoScript(e)) {
                throw e;
            }
            jedis.scriptLoad(call.script().source());
            return jedis.evalsha(call.script().sha(), call.keys(), call.args());
        }
    }

    /**
     * Runs writes in one pipeline followed by a wait for their durability; the first script that
     * failed (other than with NOSCRIPT) makes it throw, after all have run, and so does a wait that
     * fell short.
     *
     * @param jedis the connection
     * @param calls what to run, in order
     * @param wait what the writes wait for
     * @return the replies, in the order of {@code calls}
     */
    static List<Object> runAll(Jedis jedis, List<Call> calls, WriteWait wait) {
        List<Object> results = runEach(jedis, calls, wait);
        for (Object r : results) {
            if (r instanceof JedisDataException e) {
                throw e;
            }
        }
        return results;
    }

    /**
     * Runs scripts in one pipeline; a script that failed (other than with NOSCRIPT) has its error
     * as its reply, so the others' replies are not lost. A connection failure still throws.
     *
     * @param jedis the connection
     * @param calls what to run, in order
     * @param wait what the writes wait for ({@link WriteWait#NONE} for none)
     * @return the replies, or {@link JedisDataException}s, in the order of {@code calls}
     * @throws WriteWait.NotDurableException if the wait fell short
     */
    static List<Object> runEach(Jedis jedis, List<Call> calls, WriteWait wait) {
        List<Response<Object>> responses = new ArrayList<>(calls.size());
        WriteWait.Check check;
        try (Pipeline pipeline = jedis.pipelined()) {
            for (Call call : calls) {
                responses.add(pipeline.evalsha(call.script().sha(), call.keys(), call.args()));
            }
            check = wait.append(pipeline);
            pipeline.sync();
        }
        List<Object> results = new ArrayList<>(calls.size());
        List<Integer> missing = new ArrayList<>();
        for (int i = 0; i < calls.size(); i++) {
            try {
                results.add(responses.get(i).get());
            } catch (JedisDataException e) {
                results.add(e);
                if (isNoScript(e)) {
                    missing.add(i);
                }
            }
        }
        if (!missing.isEmpty()) {
            Map<Script, byte[]> scripts = new EnumMap<>(Script.class); // script -> a key it runs on
            for (int i : missing) {
                scripts.putIfAbsent(calls.get(i).script(), calls.get(i).keys().get(0));
            }
            List<Response<Object>> retried = new ArrayList<>(missing.size());
            try (Pipeline pipeline = jedis.pipelined()) {
                scripts.forEach((script, key) -> pipeline.scriptLoad(script.source(), key));
                for (int i : missing) {
                    Call call = calls.get(i);
                    retried.add(pipeline.evalsha(call.script().sha(), call.keys(), call.args()));
                }
                check = wait.append(pipeline);
                pipeline.sync();
            }
            for (int j = 0; j < missing.size(); j++) {
                Object reply;
                try {
                    reply = retried.get(j).get();
                } catch (JedisDataException e) {
                    reply = e;
                }
                results.set(missing.get(j), reply);
            }
        }
        check.verify();
        return results;
    }

    private static boolean isNoScript(JedisDataException e) {
        return e instanceof JedisNoScriptException
                || (e.getMessage() != null && e.getMessage().startsWith("NOSCRIPT"));
    }
}
