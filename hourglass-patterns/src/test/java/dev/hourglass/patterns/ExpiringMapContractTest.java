package dev.hourglass.patterns;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.common.collect.testing.ConcurrentMapTestSuiteBuilder;
import com.google.common.collect.testing.TestStringMapGenerator;
import com.google.common.collect.testing.features.CollectionFeature;
import com.google.common.collect.testing.features.CollectionSize;
import com.google.common.collect.testing.features.MapFeature;
import dev.hourglass.time.ManualNanoClock;
import dev.hourglass.timer.Timer;
import dev.hourglass.timer.Timers;
import java.time.Duration;
import java.util.Collections;
import java.util.Map;
import java.util.stream.Stream;
import junit.framework.TestCase;
import junit.framework.TestFailure;
import junit.framework.TestResult;
import junit.framework.TestSuite;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * {@link ExpiringMap#asMap()} against the whole {@link java.util.Map} and {@link
 * java.util.concurrent.ConcurrentMap} contract, as Guava's testlib states it (the suites that test
 * {@code ConcurrentHashMap}), each testlib case run as a JUnit 5 dynamic test. Twice: on plain maps,
 * and on maps that also hold an expired, not yet purged entry under every sample key the test does
 * not put, so every query for an absent key meets an entry that must stay invisible.
 *
 * <p>The maps share one manual clock that never reaches their entries' TTL, and one timer whose
 * due sweeps are dropped: nothing is purged behind the tests' back.
 */
class ExpiringMapContractTest {

    /** Testlib's ConcurrentMap suite holds over 900 cases; fewer means a suite went missing. */
    private static final int LEAST_CASES = 900;

    private static final ManualNanoClock CLOCK = new ManualNanoClock(-1_000_000_000L);
    private static final Timer TIMER =
            Timers.builder().clock(CLOCK).executor(task -> {}).startTimerThread();

    @AfterAll
    static void closeTimer() {
        TIMER.close();
    }

    @TestFactory
    Stream<DynamicNode> asMapKeepsTheConcurrentMapContract() {
        return suite("ExpiringMap.asMap", false);
    }

    @TestFactory
    Stream<DynamicNode> asMapKeepsTheContractWithExpiredEntriesUnderAbsentKeys() {
        return suite("ExpiringMap.asMap with expired entries", true);
    }

    private static Stream<DynamicNode> suite(String name, boolean withExpired) {
        TestSuite suite = ConcurrentMapTestSuiteBuilder.using(new Generator(withExpired))
                .named(name)
                .withFeatures(
                        MapFeature.GENERAL_PURPOSE, CollectionFeature.SUPPORTS_ITERATOR_REMOVE, CollectionSize.ANY)
                .createTestSuite();
        assertThat(suite.countTestCases()).as("testlib cases").isGreaterThanOrEqualTo(LEAST_CASES);
        return Stream.of(node(suite));
    }

    private static DynamicNode node(junit.framework.Test test) {
        if (test instanceof TestSuite) {
            TestSuite suite = (TestSuite) test;
            return DynamicContainer.dynamicContainer(
                    suite.getName(), Collections.list(suite.tests()).stream().map(ExpiringMapContractTest::node));
        }
        TestCase testCase = (TestCase) test;
        return DynamicTest.dynamicTest(testCase.getName(), () -> {
            TestResult result = new TestResult();
            testCase.run(result);
            for (TestFailure failure : Collections.list(result.errors())) {
                throw failure.thrownException();
            }
            for (TestFailure failure : Collections.list(result.failures())) {
                throw failure.thrownException();
            }
        });
    }

    /** Makes an expiring map's view holding the given entries, for testlib. */
    private static final class Generator extends TestStringMapGenerator {
        private final boolean withExpired;

        Generator(boolean withExpired) {
            this.withExpired = withExpired;
        }

        @Override
        protected Map<String, String> create(Map.Entry<String, String>[] entries) {
            ExpiringMap<String, String> map = ExpiringMap.<String, String>builder(TIMER, CLOCK)
                    .defaultTtl(Duration.ofHours(1))
                    .build();
            if (withExpired) {
                for (Map.Entry<String, String> sample : samples()) {
                    map.put(sample.getKey(), "expired " + sample.getValue(), Duration.ofNanos(1));
                }
                CLOCK.advance(1);
            }
            Map<String, String> view = map.asMap();
            for (Map.Entry<String, String> entry : entries) {
                view.put(entry.getKey(), entry.getValue());
            }
            return view;
        }
    }
}
