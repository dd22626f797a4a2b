package dev.hourglass.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Each script carries exactly the helpers it calls: Lua makes a closure of every helper a script
 * defines, each time it runs, so an unused one costs Redis CPU on every call; a missing one would
 * fail only when the script runs.
 */
class ScriptHelpersTest {
    private static final Pattern DEFINED = Pattern.compile("(?m)^local function (\\w+)\\(");

    @Test
    void everyScriptDefinesTheHelpersItCallsAndNoOthers() {
        Set<String> all = new TreeSet<>();
        for (Script script : Script.values()) {
            String source = new String(script.source(), StandardCharsets.UTF_8);
            Set<String> defined = names(source);
            all.addAll(defined);
            for (String name : defined) {
                assertThat(calls(source, name))
                        .as("%s defines %s and calls it", script, name)
                        .isTrue();
            }
        }
        for (Script script : Script.values()) {
            String source = new String(script.source(), StandardCharsets.UTF_8);
            for (String name : all) {
                if (calls(source, name)) {
                    assertThat(names(source)).as("%s calls %s", script, name).contains(name);
                }
            }
        }
        assertThat(all).contains("now_ms", "num", "chunked", "hmget", "meta", "set_meta");
    }

    /** The scripts write the owner of a timer no node holds as the Java side names it. */
    @Test
    void theScriptsMarkAnUnheldTimerWithNoOwner() {
        assertThat(new String(Script.ACK.source(), StandardCharsets.UTF_8))
                .contains("owner ~= '" + Script.NO_OWNER + "'");
        assertThat(new String(Script.SCHEDULE.source(), StandardCharsets.UTF_8))
                .contains("' 0 0 " + Script.NO_OWNER + "'");
        assertThat(new String(Script.NACK.source(), StandardCharsets.UTF_8))
                .contains("m.token, '" + Script.NO_OWNER + "')");
    }

    @Test
    void aHelperComesWithTheHelpersItCallsInOrder() {
        String helpers = Script.helpersCalledBy("return set_meta('a', 1, 0, '1', 'n')");
        assertThat(names(helpers)).containsExactly("num", "meta_text", "set_meta");
        assertThat(Script.helpersCalledBy("return string.format('%d', 1)")).isEmpty();
    }

    private static Set<String> names(String source) {
        Set<String> names = new LinkedHashSet<>();
        Matcher m = DEFINED.matcher(source);
        while (m.find()) {
            names.add(m.group(1));
        }
        return names;
    }

    /** True if {@code source} names {@code name} as a word other than in its definition. */
    private static boolean calls(String source, String name) {
        Matcher m = Pattern.compile("\\b" + name + "\\b").matcher(source);
        int count = 0;
        while (m.find()) {
            count++;
        }
        return count > (source.contains("local function " + name + "(") ? 1 : 0);
    }
}
