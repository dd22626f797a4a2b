package dev.hourglass.redis;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The Lua scripts that make every state change of a timer atomic on one shard. Each runs with the
 * shard's keys in the order of {@link ShardKeys#keys()}: 1 due (ZSET id -> due ms), 2 leases (ZSET
 * id -> lease expiry ms), 3 dead (ZSET id -> time it died, ms), 4 payload (HASH id -> bytes), 5
 * meta (HASH id -> "due attempts token owner", owner {@link #NO_OWNER} unless leased), 6 seq (the
 * shard's token counter), 7 recur (HASH id -> "occurrence slot recurrence" of a recurring timer; see
 * {@link Occurrence}).
 *
 * <p>Time is Redis server time ({@code TIME}) so that nodes with skewed clocks agree on what is
 * due. A script that reads {@code TIME} and then writes is safe because Redis 5 and later replicate
 * and append to the AOF the script's effects (the commands it ran with their concrete values), not
 * the script: a replica or an AOF replay never re-evaluates {@code TIME}. Redis 7 does nothing else.
 *
 * <p>A claim and a requeue take a fresh token from the shard's counter; a schedule writes token 0
 * (no attempt has it). Ack and nack only act when the caller's token is still the timer's token and
 * the timer is still leased (ack reads that from the owner: every script that ends a lease sets it
 * to {@link #NO_OWNER} or deletes the record), which makes them idempotent (safe to send again
 * after a lost reply) and makes the outcome of a delivery that was overtaken (its lease expired
 * and another node claimed it, or the id was rescheduled or cancelled meanwhile) a no-op.
 *
 * <p>Each script starts with a Redis 7 shebang that declares its flags. Scripts that add timers
 * (schedule, schedule_recurring, requeue) declare none, so Redis refuses them with OOM before they
 * run when it is over {@code maxmemory}: nothing is half-written. Scripts that free memory or keep
 * due timers moving (claim, ack, nack, cancel, purge, extend, release, advance) declare {@code
 * allow-oom}; lookup declares {@code no-writes}.
 *
 * <p>Complexity: each script costs O(log n) per timer it touches on a shard of n timers.
 *
 * <p>Ordering: not applicable; thread-safety: immutable, shared freely.
 */
enum Script {
    /**
     * ARGV: id, payload, "at"|"in", ms, channel, "queue shard". Returns the due time (ms); publishes
     * "delay queue shard" when the timer is now the shard's earliest. See {@link #SCHEDULE_ALL} for
     * what it skips. {@link ScheduleCalls} sends this and {@link #SCHEDULE_ALL} only when a shard's
     * timers in one call include one with a delay: timers with a due time need no clock in the write
     * and otherwise go as a MULTI/EXEC.
     */
    SCHEDULE(
            "#!lua",
            """
            local id = ARGV[1]
            local now = nil
            local due = ARGV[4]
            if ARGV[3] == 'in' then
              now = now_ms_up()
              due = num(now + tonumber(due))
            end
            if redis.call('HSET', KEYS[4], id, ARGV[2]) == 0 then
              redis.call('ZREM', KEYS[2], id)
              redis.call('ZREM', KEYS[3], id)
              redis.call('HDEL', KEYS[7], id)
            end
            redis.call('ZADD', KEYS[1], due, id)
            redis.call('HSET', KEYS[5], id, due .. ' 0 0 -')
            if redis.call('ZRANGE', KEYS[1], 0, 0)[1] == id then
              now = now or now_ms_up()
              redis.call('PUBLISH', ARGV[5], num(math.max(0, tonumber(due) - now)) .. ' ' .. ARGV[6])
            end
            return tonumber(due)
            """),

    /**
     * ARGV: channel, "queue shard", then id, payload, "at"|"in", ms per timer: the schedules of one
     * shard, in one call, each replacing whatever its id held (in order: of two with one id, the
     * later wins). Returns how many; publishes "delay queue shard" when one of them is now the
     * shard's earliest. A batch costs one command per key, not one per timer; for one timer {@link
     * #SCHEDULE} is cheaper (Lua's cost of building the lists). What both skip: an id had no
     * payload only if it was in none of due, leases, dead and recur (every script keeps that), so
     * the removals from those run only when the payloads' HSET replaced one; the timer's token is 0
     * until its first claim (claims take tokens from the counter, and only a leased timer's token
     * is ever compared); Redis's {@code TIME} is read only for a delay or a publish.
     */
    SCHEDULE_ALL(
            "#!lua",
            """
            local now = nil
            local payload_pairs, due_pairs, meta_pairs = {}, {}, {}
            local n = 0
            for b = 3, #ARGV, 4 do
              local due = ARGV[b + 3]
              if ARGV[b + 2] == 'in' then
                now = now or now_ms_up()
                due = num(now + tonumber(due))
              end
              local id = ARGV[b]
              n = n + 1
              payload_pairs[2 * n - 1] = id
              payload_pairs[2 * n] = ARGV[b + 1]
              due_pairs[2 * n - 1] = due
              due_pairs[2 * n] = id
              meta_pairs[2 * n - 1] = id
              meta_pairs[2 * n] = due .. ' 0 0 -'
            end
            local added = 0
            for i = 1, 2 * n, 1000 do
              added = added + redis.call('HSET', KEYS[4], unpack(payload_pairs, i, math.min(i + 999, 2 * n)))
            end
            if added < n then
              local ids = {}
              for i = 1, n do ids[i] = payload_pairs[2 * i - 1] end
              chunked('ZREM', KEYS[2], ids)
              chunked('ZREM', KEYS[3], ids)
              chunked('HDEL', KEYS[7], ids)
            end
            chunked('ZADD', KEYS[1], due_pairs)
            chunked('HSET', KEYS[5], meta_pairs)
            local head = redis.call('ZRANGE', KEYS[1], 0, 0)[1]
            for i = n, 1, -1 do
              if due_pairs[2 * i] == head then
                now = now or now_ms_up()
                redis.call('PUBLISH', ARGV[1], num(math.max(0, tonumber(due_pairs[2 * i - 1]) - now)) .. ' ' .. ARGV[2])
                break
              end
            end
            return n
            """),

    /**
     * ARGV: id, payload, "at"|"in", ms, recurrence, channel, "queue shard". Starts a recurring timer
     * whose first occurrence is due at the time given, replacing whatever the id held, unless the id
     * already holds a series with the same recurrence and payload. Returns {1, due} when it started
     * one, {0, slot of the current occurrence} when it kept the existing one.
     */
    SCHEDULE_RECURRING(
            "#!lua",
            """
            local id = ARGV[1]
            local r = redis.call('HGET', KEYS[7], id)
            if r then
              local slot, def = string.match(r, '^%d+ (%-?%d+) (.*)$')
              if def == ARGV[5] and redis.call('HGET', KEYS[4], id) == ARGV[2] then return {0, tonumber(slot)} end
            end
            local now = now_ms_up()
            local due = tonumber(ARGV[4])
            if ARGV[3] == 'in' then due = now + due end
            redis.call('ZREM', KEYS[2], id)
            redis.call('ZREM', KEYS[3], id)
            local token = num(redis.call('INCR', KEYS[6]))
            redis.call('ZADD', KEYS[1], num(due), id)
            redis.call('HSET', KEYS[4], id, ARGV[2])
            set_meta(id, due, 0, token, '-')
            redis.call('HSET', KEYS[7], id, '1 ' .. num(due) .. ' ' .. ARGV[5])
            if redis.call('ZRANGE', KEYS[1], 0, 0)[1] == id then
              redis.call('PUBLISH', ARGV[6], num(math.max(0, due - now)) .. ' ' .. ARGV[7])
            end
            return {1, due}
            """),

    /**
     * ARGV: id, token, occurrence, "at"|"in"|"end", ms, channel, "queue shard". Ends an occurrence of
     * a recurring timer (done, failed for good or skipped) and creates the next one, due at the time
     * given with no attempts; "end" deletes the series (no slot left). Only the holder of the
     * occurrence's lease (its token) and only for that occurrence number: a repeat, an older attempt
     * or another node finds another token or number and does nothing. Returns 1 when it advanced, 3
     * when the series ended, 0 when it did nothing.
     */
    ADVANCE(
            "#!lua flags=allow-oom",
            """
            local id = ARGV[1]
            local m = meta(id)
            if not m or m.token ~= ARGV[2] or not redis.call('ZSCORE', KEYS[2], id) then return 0 end
            local r = redis.call('HGET', KEYS[7], id)
            if not r then return 0 end
            local n, def = string.match(r, '^(%d+) %-?%d+ (.*)$')
            if n ~= ARGV[3] then return 0 end
            redis.call('ZREM', KEYS[2], id)
            if ARGV[4] == 'end' then
              redis.call('HDEL', KEYS[4], id)
              redis.call('HDEL', KEYS[5], id)
              redis.call('HDEL', KEYS[7], id)
              return 3
            end
            local now = now_ms_up()
            local due = tonumber(ARGV[5])
            if ARGV[4] == 'in' then due = now + due end
            local token = num(redis.call('INCR', KEYS[6]))
            redis.call('ZADD', KEYS[1], num(due), id)
            set_meta(id, due, 0, token, '-')
            redis.call('HSET', KEYS[7], id, num(tonumber(n) + 1) .. ' ' .. num(due) .. ' ' .. def)
            if redis.call('ZRANGE', KEYS[1], 0, 0)[1] == id then
              redis.call('PUBLISH', ARGV[6], num(math.max(0, due - now)) .. ' ' .. ARGV[7])
            end
            return 1
            """),

    /**
     * ARGV: batch, lease ms, max attempts, owner, then id, token pairs: the shard's acks, as {@link
     * #ACK} takes them, which run first (a pass that claims on a shard carries its acks: one script
     * call less). Then it reclaims expired leases (or moves them to the dead letters when their
     * attempts are used up) and claims due timers, up to batch in all (0 only reports the shard's
     * next time). Returns {now, delay to the shard's next due time or lease expiry or -1, 1 if the
     * batch was full, how many expired leases it moved to the dead letters, then 1 or 0 per ack as
     * {@link #ACK} returns them, then id, payload, due, attempt, token, series record (or nil) per
     * claimed timer}: {@link #CLAIM_HEADER} numbers, one per ack, then 6 per timer. A
     * recurring timer whose leases ran out on its last attempt is claimed once more (attempt above
     * the limit), not dead-lettered: its node then ends the occurrence with {@link #ADVANCE}. The
     * due timers of a batch are read and written with one command per key (and one INCRBY for their
     * tokens), not one per timer: Redis's cost per claimed timer is a few hash and sorted-set updates.
     */
    CLAIM(
            "#!lua flags=allow-oom",
            """
            local now = now_ms()
            local now_text = num(now)
            local batch = tonumber(ARGV[1])
            local lease_until = num(now + tonumber(ARGV[2]))
            local out = {now, -1, 0, 0}
            for _, acked in ipairs(ack(5)) do out[#out + 1] = acked end
            local ids, dues, attempts = {}, {}, {}
            for _, id in ipairs(redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', now_text, 'LIMIT', 0, batch)) do
              local m = meta(id)
              if m.attempts >= tonumber(ARGV[3]) and redis.call('HEXISTS', KEYS[7], id) == 0 then
                redis.call('ZREM', KEYS[2], id)
                redis.call('ZADD', KEYS[3], now_text, id)
                set_meta(id, m.due, m.attempts, m.token, '-')
                out[4] = out[4] + 1
              else
                ids[#ids + 1] = id
                dues[#ids] = m.due_text
                attempts[#ids] = m.attempts
              end
            end
            if #ids < batch then
              local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now_text, 'LIMIT', 0, batch - #ids)
              if #due > 0 then
                chunked('ZREM', KEYS[1], due)
                for i, m in ipairs(hmget(KEYS[5], due)) do
                  local d, a = string.match(m, '^(%S+) (%d+) ')
                  ids[#ids + 1] = due[i]
                  dues[#ids] = d
                  attempts[#ids] = tonumber(a)
                end
              end
            end
            local n = #ids
            if n > 0 then
              local first = tonumber(redis.call('INCRBY', KEYS[6], n)) - n
              local leases, records = {}, {}
              local payloads, series = hmget(KEYS[4], ids), {}
              if redis.call('EXISTS', KEYS[7]) == 1 then series = hmget(KEYS[7], ids) end
              local k = #out
              for i, id in ipairs(ids) do
                local token = num(first + i)
                local attempt = attempts[i] + 1
                leases[2 * i - 1] = lease_until
                leases[2 * i] = id
                records[2 * i - 1] = id
                records[2 * i] = dues[i] .. ' ' .. attempt .. ' ' .. token .. ' ' .. ARGV[4]
                out[k + 1] = id
                out[k + 2] = payloads[i]
                out[k + 3] = tonumber(dues[i])
                out[k + 4] = attempt
                out[k + 5] = token
                out[k + 6] = series[i] or false
                k = k + 6
              end
              chunked('ZADD', KEYS[2], leases)
              chunked('HSET', KEYS[5], records)
            end
            local next_at = nil
            local d = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
            if d[2] then next_at = tonumber(d[2]) end
            local l = redis.call('ZRANGE', KEYS[2], 0, 0, 'WITHSCORES')
            if l[2] and (next_at == nil or tonumber(l[2]) < next_at) then next_at = tonumber(l[2]) end
            if next_at ~= nil then out[2] = math.max(0, next_at - now) end
            if batch > 0 and n >= batch then out[3] = 1 end
            return out
            """),

    /**
     * ARGV: id, token, then more id, token pairs: the acks of one shard, in one call, when no claim
     * on the shard carries them ({@link #CLAIM}). Each timer is done with only if the token is still
     * its token and it is still leased (its owner is not {@link #NO_OWNER}: a nack, a release or the
     * dead letters keep the token but clear the owner). Returns 1 or 0 per pair, in order: 0 when
     * the token no longer holds the timer.
     */
    ACK("#!lua flags=allow-oom", "return ack(1)\n"),

    /**
     * ARGV: id, token, backoff ms, max attempts. Returns 1 if the timer was made due again after the
     * backoff, 2 if it went to the dead letters, 0 if the token no longer holds it.
     */
    NACK(
            "#!lua flags=allow-oom",
            """
            local m = meta(ARGV[1])
            if not m or m.token ~= ARGV[2] or not redis.call('ZSCORE', KEYS[2], ARGV[1]) then return 0 end
            local now = now_ms_up()
            redis.call('ZREM', KEYS[2], ARGV[1])
            if m.attempts >= tonumber(ARGV[4]) then
              redis.call('ZADD', KEYS[3], num(now), ARGV[1])
              set_meta(ARGV[1], m.due, m.attempts, m.token, '-')
              return 2
            end
            local due = now + tonumber(ARGV[3])
            redis.call('ZADD', KEYS[1], num(due), ARGV[1])
            set_meta(ARGV[1], due, m.attempts, m.token, '-')
            return 1
            """),

    /**
     * ARGV: id, token, lease ms. The heartbeat of a running delivery: extends its lease to now+lease.
     * Returns 1, or 0 if the token no longer holds the timer (a newer attempt, a reschedule or a
     * cancel took it).
     */
    EXTEND(
            "#!lua flags=allow-oom",
            """
            local m = meta(ARGV[1])
            if not m or m.token ~= ARGV[2] or not redis.call('ZSCORE', KEYS[2], ARGV[1]) then return 0 end
            redis.call('ZADD', KEYS[2], 'XX', num(now_ms() + tonumber(ARGV[3])), ARGV[1])
            return 1
            """),

    /**
     * ARGV: owner, channel (empty: announce nothing), "queue shard", then the tokens the owner still
     * holds. Makes due again, without counting the attempt, every timer leased to the owner under a
     * token it does not hold: claims whose reply the owner never got (a Redis stall past the socket
     * timeout), or, at close, deliveries still running. Publishes "0 queue shard" on the channel when
     * it released any, so that the other nodes claim them now rather than at their next poll.
     * Returns how many.
     */
    RELEASE(
            "#!lua flags=allow-oom",
            """
            local keep = {}
            for i = 4, #ARGV do keep[ARGV[i]] = true end
            local n = 0
            for _, id in ipairs(redis.call('ZRANGE', KEYS[2], 0, -1)) do
              local m = meta(id)
              if m and m.owner == ARGV[1] and not keep[m.token] then
                redis.call('ZREM', KEYS[2], id)
                redis.call('ZADD', KEYS[1], num(m.due), id)
                set_meta(id, m.due, math.max(0, m.attempts - 1), m.token, '-')
                n = n + 1
              end
            end
            if n > 0 and ARGV[2] ~= '' then redis.call('PUBLISH', ARGV[2], '0 ' .. ARGV[3]) end
            return n
            """),

    /** ARGV: id. Returns how many of due, leases and dead held the id (0 or 1). */
    CANCEL(
            "#!lua flags=allow-oom",
            """
            local n = redis.call('ZREM', KEYS[1], ARGV[1]) + redis.call('ZREM', KEYS[2], ARGV[1])
              + redis.call('ZREM', KEYS[3], ARGV[1])
            redis.call('HDEL', KEYS[4], ARGV[1])
            redis.call('HDEL', KEYS[5], ARGV[1])
            redis.call('HDEL', KEYS[7], ARGV[1])
            return n
            """),

    /** ARGV: id. Returns nil, or {state, meta, payload}. */
    LOOKUP(
            "#!lua flags=no-writes",
            """
            local m = redis.call('HGET', KEYS[5], ARGV[1])
            if not m then return false end
            local state = 'scheduled'
            if redis.call('ZSCORE', KEYS[2], ARGV[1]) then
              state = 'claimed'
            elseif redis.call('ZSCORE', KEYS[3], ARGV[1]) then
              state = 'dead'
            end
            return {state, m, redis.call('HGET', KEYS[4], ARGV[1])}
            """),

    /**
     * ARGV: id, channel, "queue shard". Returns 1 if a dead timer was made due now with no attempts,
     * else 0.
     */
    REQUEUE(
            "#!lua",
            """
            if redis.call('ZREM', KEYS[3], ARGV[1]) == 0 then return 0 end
            local now = now_ms()
            local token = num(redis.call('INCR', KEYS[6]))
            redis.call('ZADD', KEYS[1], num(now), ARGV[1])
            set_meta(ARGV[1], now, 0, token, '-')
            redis.call('PUBLISH', ARGV[2], '0 ' .. ARGV[3])
            return 1
            """),

    /** ARGV: limit. Deletes up to limit dead timers; returns how many. */
    PURGE(
            "#!lua flags=allow-oom",
            """
            local ids = redis.call('ZRANGE', KEYS[3], 0, tonumber(ARGV[1]) - 1)
            for _, id in ipairs(ids) do
              redis.call('ZREM', KEYS[3], id)
              redis.call('HDEL', KEYS[4], id)
              redis.call('HDEL', KEYS[5], id)
              redis.call('HDEL', KEYS[7], id)
            end
            return #ids
            """);

    // Numbers go to Redis as strings formatted here: Lua's default formatting keeps 14 digits only.
    // Claims compare with the time rounded down and due times start from it rounded up: never early.
    /** The numbers before the claimed timers in {@link #CLAIM}'s reply. */
    static final int CLAIM_HEADER = 4;

    /** The owner in the meta record of a timer no node holds; the scripts write it as '-'. */
    static final String NO_OWNER = "-";

    /**
     * The helpers the scripts share, each a {@code local function} (with the comment lines above
     * it) that ends with an unindented {@code end} line or on its own line, each using only helpers
     * defined before it. A script gets only the helpers it names, directly or through another: Lua
     * makes a closure of every one each time the script runs. A text block, so a constant: the
     * enum's constructors, which run before its static fields are set, may read it.
     */
    private static final String HELPERS =
            """
            local function now_ms()
              local t = redis.call('TIME')
              return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
            end
            local function now_ms_up()
              local t = redis.call('TIME')
              return tonumber(t[1]) * 1000 + math.ceil(tonumber(t[2]) / 1000)
            end
            local function num(n) return string.format('%.0f', n) end
            local function parse_meta(m)
              local due, attempts, token, owner = string.match(m, '^(%-?%d+) (%d+) (%d+) (.*)$')
              return {due = tonumber(due), due_text = due, attempts = tonumber(attempts), token = token, owner = owner}
            end
            local function meta(id)
              local m = redis.call('HGET', KEYS[5], id)
              if not m then return nil end
              return parse_meta(m)
            end
            local function meta_text(due, attempts, token, owner)
              return num(due) .. ' ' .. num(attempts) .. ' ' .. token .. ' ' .. owner
            end
            local function set_meta(id, due, attempts, token, owner)
              redis.call('HSET', KEYS[5], id, meta_text(due, attempts, token, owner))
            end
            -- one command over a list, in slices that unpack can pass (an even size keeps pairs whole);
            -- returns the replies of the slices joined, for commands that reply one value per argument
            -- (a list of one slice is the common case: its reply is returned as is, not copied)
            local function chunked(cmd, key, list)
              if #list == 0 then return {} end
              if #list <= 1000 then return redis.call(cmd, key, unpack(list)) end
              local out = {}
              for i = 1, #list, 1000 do
                local r = redis.call(cmd, key, unpack(list, i, math.min(i + 999, #list)))
                if type(r) == 'table' then
                  for j = 1, #r do out[#out + 1] = r[j] end
                end
              end
              return out
            end
            local function hmget(key, ids) return chunked('HMGET', key, ids) end
            -- the acks in ARGV from index first on, as id, token pairs: a timer is done with only if
            -- its token is still the pair's and it is still leased; returns 1 or 0 per pair, in order
            local function ack(first)
              local ids = {}
              for i = first, #ARGV - 1, 2 do ids[#ids + 1] = ARGV[i] end
              if #ids == 0 then return {} end
              local records = hmget(KEYS[5], ids)
              local done, out = {}, {}
              for i, id in ipairs(ids) do
                local token, owner = string.match(records[i] or '', '^%S+ %d+ (%d+) (.*)$')
                if token == ARGV[first + 2 * i - 1] and owner ~= '-' then
                  done[#done + 1] = id
                  out[i] = 1
                else
                  out[i] = 0
                end
              end
              if #done > 0 then
                chunked('ZREM', KEYS[2], done)
                chunked('HDEL', KEYS[4], done)
                chunked('HDEL', KEYS[5], done)
                if redis.call('EXISTS', KEYS[7]) == 1 then chunked('HDEL', KEYS[7], done) end
              end
              return out
            end
            """;

    private final byte[] source;
    private final byte[] sha;

    Script(String shebang, String body) {
        this.source = (shebang + "\n" + helpersCalledBy(body) + body).getBytes(StandardCharsets.UTF_8);
        this.sha = sha1Hex(source).getBytes(StandardCharsets.US_ASCII);
    }

    /** The helpers {@code body} names, directly or through other helpers, in their order. */
    static String helpersCalledBy(String body) {
        List<String> helpers = new ArrayList<>();
        StringBuilder helper = new StringBuilder();
        for (String line : HELPERS.split("\n")) {
            helper.append(line).append('\n');
            if (line.equals("end") || (line.startsWith("local function ") && line.endsWith(" end"))) {
                helpers.add(helper.toString());
                helper.setLength(0);
            }
        }
        if (!helper.isEmpty()) {
            throw new IllegalStateException("text after the last helper: " + helper);
        }
        // Not a static field: the enum's constants are made before its static fields.
        Pattern helperName = Pattern.compile("(?m)^local function (\\w+)\\(");
        StringBuilder calling = new StringBuilder(body);
        List<String> picked = new ArrayList<>();
        for (int i = helpers.size() - 1; i >= 0; i--) {
            Matcher name = helperName.matcher(helpers.get(i));
            if (!name.find()) {
                throw new IllegalStateException("a helper without a name: " + helpers.get(i));
            }
            // Any mention as a name, not only a call with parentheses: one left out fails at run time.
            if (Pattern.compile("(?<![\\w.:])" + name.group(1) + "\\b")
                    .matcher(calling)
                    .find()) {
                picked.add(0, helpers.get(i));
                calling.append(helpers.get(i));
            }
        }
        return String.join("", picked);
    }

    /** Returns the script's text, for EVAL; the caller must not modify it. */
    byte[] source() {
        return source;
    }

    /** Returns the SHA-1 that Redis caches the script under, for EVALSHA; not to be modified. */
    byte[] sha() {
        return sha;
    }

    private static String sha1Hex(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-1", e);
        }
    }
}
