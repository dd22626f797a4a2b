package dev.hourglass.redis;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Pipeline;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.Response;
import redis.clients.jedis.exceptions.JedisAskDataException;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.exceptions.JedisNoScriptException;
import redis.clients.jedis.exceptions.JedisRedirectionException;

/**
 * Runs {@link Script}s by EVALSHA (the node loads them all at start), and {@link Transaction}s of
 * plain commands by MULTI/EXEC; when the server answers NOSCRIPT, as it does after a restart, a
 * SCRIPT FLUSH or a failover to a replica, loads the script (SCRIPT LOAD) and runs it again. A
 * script that answered NOSCRIPT did not run, so running it again is always correct. Writes are
 * followed, in the same pipeline, by the {@link WriteWait} of the node's durability.
 *
 * <p>The calls of a pipeline are grouped by the master that owns their shard (one group when
 * standalone): one pipeline per master, each followed by its own wait, so a durability wait goes to
 * the master that took the writes. A call answered MOVED (its slot has another master now) did not
 * run: the slot map is read again and the call sent to the new master; a call answered ASK (its slot
 * is migrating) is sent to the node named, after ASKING (before MULTI for a transaction: Redis keeps
 * the flag until EXEC). At most {@value #MAX_REDIRECTS} rounds;
 * then the redirection is the call's reply. A connection failure refreshes the slot map (a failover
 * may have moved the slot) and is thrown.
 *
 * <p>Complexity: one round trip per master per call, or per pipeline of calls (more when scripts
 * must be reloaded or calls are redirected). Ordering: pipelined calls on one shard run in the order
 * given, but a script answered NOSCRIPT runs again after the rest of its pipeline; so a caller whose
 * order matters keeps a shard's calls of one pipeline all scripts or all transactions.
 * Thread-safety: stateless.
 */
final class ScriptRunner {
    private static final int MAX_REDIRECTS = 5;

    private ScriptRunner() {}

    /** What runs on one shard in one step: a script call or a transaction. */
    sealed interface Request permits Call, Transaction {
        /** Returns a key of the shard, which names the master it goes to. */
        byte[] key();
    }

    /** One script call: the script, the shard's keys and the arguments. */
    record Call(Script script, List<byte[]> keys, List<byte[]> args) implements Request {
        @Override
        public byte[] key() {
            return keys.get(0);
        }
    }

    /**
     * Plain commands on one shard's keys that run as one MULTI/EXEC: Redis runs them all, with
     * nothing in between, or none when it refuses one as it is queued (OOM, a redirection) or
     * refuses EXEC. Its reply is EXEC's, one reply per command, or the first error: a command's
     * refusal, EXEC's, or a command's own at run time (Redis still ran the others then).
     *
     * @param key a key of the shard
     * @param commands the commands, in order
     */
    record Transaction(byte[] key, List<Command> commands) implements Request {}

    /**
     * One command of a {@link Transaction}.
     *
     * @param name the command
     * @param args its arguments, keys included; not copied, not to be modified
     */
    record Command(Protocol.Command name, byte[]... args) {}

    /** The reply of one request once its pipeline ran: the reply, or throws its error. */
    private interface Reply {
        Object get();
    }

    /** Where a group of calls goes: a master, or the node an ASK redirection named. */
    private record Target(HostAndPort server, boolean asking) {}

    /** The replies of one pipeline and the check of its wait. */
    private record Ran(List<Object> replies, WriteWait.Check check) {}

    /**
     * Runs one script that only reads (no durability wait).
     *
     * @param servers where it goes
     * @param call what to run
     * @return the script's reply
     */
    static Object run(Servers servers, Call call) {
        return runAll(servers, List.of(call), WriteWait.NONE).get(0);
    }

    /**
     * Runs writes pipelined, followed by a wait for their durability; the first script that failed
     * (other than with NOSCRIPT or a redirection) makes it throw, after all have run, and so does a
     * wait that fell short.
     *
     * @param servers where they go
     * @param calls what to run, in order
     * @param wait what the writes wait for
     * @return the replies, in the order of {@code calls}
     */
    static List<Object> runAll(Servers servers, List<? extends Request> calls, WriteWait wait) {
        List<Object> results = runEach(servers, calls, wait);
        for (Object r : results) {
            if (r instanceof JedisDataException e) {
                throw e;
            }
        }
        return results;
    }

    /**
     * Runs scripts pipelined; a script that failed (other than with NOSCRIPT or a redirection) has
     * its error as its reply, so the others' replies are not lost. A connection failure still throws.
     *
     * @param servers where they go
     * @param calls what to run, in order
     * @param wait what the writes wait for ({@link WriteWait#NONE} for none)
     * @return the replies, or {@link JedisDataException}s, in the order of {@code calls}
     * @throws WriteWait.NotDurableException if a wait fell short
     */
    static List<Object> runEach(Servers servers, List<? extends Request> calls, WriteWait wait) {
        Object[] results = new Object[calls.size()];
        List<Integer> todo = new ArrayList<>(calls.size());
        for (int i = 0; i < calls.size(); i++) {
            todo.add(i);
        }
        Map<Integer, HostAndPort> asked = new HashMap<>();
        for (int round = 0; !todo.isEmpty(); round++) {
            Map<Target, List<Integer>> groups = new LinkedHashMap<>();
            for (int i : todo) {
                HostAndPort ask = asked.get(i);
                Target target = ask != null
                        ? new Target(ask, true)
                        : new Target(servers.owner(calls.get(i).key()), false);
                groups.computeIfAbsent(target, t -> new ArrayList<>()).add(i);
            }
            asked.clear();
            List<Integer> redirected = new ArrayList<>();
            boolean moved = false;
            for (Map.Entry<Target, List<Integer>> group : groups.entrySet()) {
                List<Request> sub = new ArrayList<>(group.getValue().size());
                group.getValue().forEach(i -> sub.add(calls.get(i)));
                Ran ran;
                try (Jedis jedis = servers.connection(group.getKey().server())) {
                    ran = runOn(jedis, sub, wait, group.getKey().asking());
                } catch (JedisConnectionException e) {
                    servers.refresh();
                    throw e;
                }
                boolean anyRan = false;
                for (int j = 0; j < sub.size(); j++) {
                    int i = group.getValue().get(j);
                    Object reply = ran.replies().get(j);
                    results[i] = reply;
                    if (!(reply instanceof JedisRedirectionException r)) {
                        anyRan = true;
                    } else if (round < MAX_REDIRECTS) {
                        redirected.add(i);
                        if (r instanceof JedisAskDataException) {
                            asked.put(i, r.getTargetNode());
                        } else {
                            moved = true;
                        }
                    }
                }
                if (anyRan) { // a group all redirected wrote nothing, and may be a replica now
                    ran.check().verify();
                }
            }
            if (moved) {
                servers.refresh();
            }
            todo = redirected;
        }
        return Arrays.asList(results);
    }

    private static Ran runOn(Jedis jedis, List<Request> calls, WriteWait wait, boolean asking) {
        List<Reply> responses = new ArrayList<>(calls.size());
        WriteWait.Check check;
        try (Pipeline pipeline = jedis.pipelined()) {
            for (Request call : calls) {
                responses.add(send(pipeline, call, asking));
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
                Call call = (Call) calls.get(i); // only a script call answers NOSCRIPT
                scripts.putIfAbsent(call.script(), call.key());
            }
            List<Reply> retried = new ArrayList<>(missing.size());
            try (Pipeline pipeline = jedis.pipelined()) {
                scripts.forEach((script, key) -> pipeline.scriptLoad(script.source(), key));
                for (int i : missing) {
                    retried.add(send(pipeline, calls.get(i), asking));
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
        return new Ran(results, check);
    }

    private static Reply send(Pipeline pipeline, Request request, boolean asking) {
        if (asking) {
            pipeline.sendCommand(Protocol.Command.ASKING, new byte[0][]);
        }
        if (request instanceof Call call) {
            return pipeline.evalsha(call.script().sha(), call.keys(), call.args())::get;
        }
        List<Command> commands = ((Transaction) request).commands();
        List<Response<Object>> queued = new ArrayList<>(commands.size() + 1);
        queued.add(pipeline.sendCommand(Protocol.Command.MULTI, new byte[0][]));
        for (Command c : commands) {
            queued.add(pipeline.sendCommand(c.name(), c.args()));
        }
        Response<Object> exec = pipeline.sendCommand(Protocol.Command.EXEC, new byte[0][]);
        return () -> {
            for (Response<Object> q : queued) {
                q.get(); // throws what Redis refused to queue: it also made EXEC discard everything
            }
            List<?> replies = (List<?>) exec.get();
            for (Object r : replies) {
                if (r instanceof JedisDataException e) {
                    throw e;
                }
            }
            return replies;
        };
    }

    private static boolean isNoScript(JedisDataException e) {
        return e instanceof JedisNoScriptException
                || (e.getMessage() != null && e.getMessage().startsWith("NOSCRIPT"));
    }
}
