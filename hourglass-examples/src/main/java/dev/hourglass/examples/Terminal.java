package dev.hourglass.examples;

import java.io.Console;
import java.lang.reflect.InvocationTargetException;

/** Whether the demos may redraw their output in place. */
public final class Terminal {

    private Terminal() {}

    /**
     * Tells whether standard output is a terminal. Java 22 and later give every process a console,
     * redirected or not, and answer through {@code Console.isTerminal}, read here by reflection.
     *
     * @return true if standard input and output are a terminal
     */
    public static boolean isTerminal() {
        Console console = System.console();
        if (console == null) {
            return false;
        }
        try {
            return (Boolean) Console.class.getMethod("isTerminal").invoke(console);
        } catch (NoSuchMethodException e) {
            // Before Java 22 a console exists only when both standard streams are a terminal.
            return true;
        } catch (IllegalAccessException | InvocationTargetException e) {
            return false;
        }
    }
}
