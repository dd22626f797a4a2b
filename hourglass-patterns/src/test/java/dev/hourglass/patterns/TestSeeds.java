package dev.hourglass.patterns;

import java.util.SplittableRandom;

/**
 * Seeds of the randomised tests: fixed by default so that CI is repeatable; {@code
 * -Dhourglass.seed=N} replays the run that printed N and {@code -Dhourglass.seed=random} explores. Every test prints
 * its seed when it fails.
 */
final class TestSeeds {

    private TestSeeds() {}

    /** The seed of one test, told apart from the others' by {@code salt}. */
    static long seed(long salt) {
        String property = System.getProperty("hourglass.seed");
        if (property == null) {
            return 0x5EED_0000L ^ salt;
        }
        if (property.equals("random")) {
            return new SplittableRandom().nextLong();
        }
        return Long.parseLong(property);
    }
}
