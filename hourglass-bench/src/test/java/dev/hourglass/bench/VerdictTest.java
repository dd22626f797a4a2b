package dev.hourglass.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.Map;
import org.junit.jupiter.api.Test;

class VerdictTest {

    private static final Workload WORKLOAD = Workloads.all().get(0);

    private static Measurement m(double score, double error, int forks) {
        return Measurement.of(WORKLOAD, Map.of("impl", "X", "n", "1000000", "k", "10"), score, error, forks);
    }

    @Test
    void theRatioIntervalTakesTheExtremesBothIntervalsAllow() {
        double[] interval = Verdict.ratioInterval(m(20, 2, 3), m(10, 1, 3));

        assertThat(interval[0]).isCloseTo(18.0 / 11, within(1e-12));
        assertThat(interval[1]).isCloseTo(22.0 / 9, within(1e-12));
    }

    @Test
    void aDenominatorWhoseIntervalReachesZeroLeavesTheRatioUnboundedAbove() {
        double[] interval = Verdict.ratioInterval(m(20, 2, 3), m(10, 12, 3));

        assertThat(interval[0]).isCloseTo(18.0 / 22, within(1e-12));
        assertThat(interval[1]).isInfinite();
    }

    @Test
    void aWinNeedsTheWholeIntervalAboveOne() {
        Verdict win = Verdict.compare(m(10, 1, 3), m(20, 2, 3));
        Verdict tie = Verdict.compare(m(10, 3, 3), m(14, 2, 3));
        Verdict loss = Verdict.compare(m(20, 2, 3), m(10, 1, 3));

        assertThat(win.word()).isEqualTo(Verdict.WIN);
        assertThat(win.value()).isEqualTo(2.0);
        assertThat(win.ratioText()).isEqualTo("2.00× [1.64–2.44×] win");
        assertThat(tie.word()).isEqualTo(Verdict.TIE);
        assertThat(tie.limit()).isEqualTo("interval 0.92–2.29× includes 1×");
        assertThat(loss.word()).isEqualTo(Verdict.LOSS);
    }

    @Test
    void fewerThanThreeForksMakeEveryVerdictATie() {
        Verdict oneFork = Verdict.compare(m(10, 1, 1), m(20, 2, 3));
        Verdict twoForks = Verdict.compare(m(20, 2, 3), m(10, 1, 2));

        assertThat(oneFork.word()).isEqualTo(Verdict.TIE);
        assertThat(oneFork.limit()).isEqualTo("provisional: 1 fork, a verdict needs 3");
        assertThat(twoForks.word()).isEqualTo(Verdict.TIE);
        assertThat(twoForks.limit()).isEqualTo("provisional: 2 forks, a verdict needs 3");
    }

    @Test
    void noErrorEstimateMeansNoVerdict() {
        Verdict verdict = Verdict.compare(m(10, Double.NaN, 3), m(100, 1, 3));

        assertThat(verdict.word()).isEqualTo(Verdict.TIE);
        assertThat(verdict.limit()).isEqualTo("no error estimate (too few samples)");
    }

    @Test
    void theExpiryTargetIsNotMetWhenItsErrorReachesBeyondIt() {
        // the case: 15.6 ± 57.9 ns against a target of 20 ns
        Verdict wide = Verdict.atMost(m(15.6, 57.9, 3), 20);
        Verdict narrow = Verdict.atMost(m(15.6, 2, 3), 20);
        Verdict oneFork = Verdict.atMost(m(15.6, 2, 1), 20);
        Verdict above = Verdict.atMost(m(25, 2, 3), 20);

        assertThat(wide.word()).isEqualTo(Verdict.NOT_MET);
        assertThat(wide.limit()).isEqualTo("undecided: interval -42.3–73.5 reaches above 20.0");
        assertThat(narrow.word()).isEqualTo(Verdict.MET);
        assertThat(narrow.favourable()).isTrue();
        assertThat(oneFork.word()).isEqualTo(Verdict.NOT_MET);
        assertThat(oneFork.limit()).startsWith("provisional: 1 fork");
        assertThat(above.word()).isEqualTo(Verdict.NOT_MET);
        assertThat(above.limit()).isEqualTo("missed: interval 23.0–27.0 above 20.0");
    }

    @Test
    void aSpeedupTargetIsMetOnlyWhenTheIntervalClearsIt() {
        Verdict met = Verdict.speedup(m(10, 0.5, 3), m(30, 1, 3), 2);
        Verdict undecided = Verdict.speedup(m(10, 2, 3), m(30, 1, 3), 3);
        Verdict missed = Verdict.speedup(m(10, 0.5, 3), m(15, 1, 3), 2);
        Verdict provisional = Verdict.speedup(m(10, 0.5, 1), m(30, 1, 1), 2);

        assertThat(met.word()).isEqualTo(Verdict.MET);
        assertThat(undecided.word()).isEqualTo(Verdict.NOT_MET);
        assertThat(undecided.limit()).startsWith("undecided: interval 2.42–3.88× includes 3.00×");
        assertThat(missed.word()).isEqualTo(Verdict.NOT_MET);
        assertThat(missed.limit()).startsWith("missed:");
        assertThat(provisional.word()).isEqualTo(Verdict.NOT_MET);
        assertThat(provisional.limit()).startsWith("provisional:");
    }
}
