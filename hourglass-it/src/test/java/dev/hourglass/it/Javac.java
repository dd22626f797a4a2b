package dev.hourglass.it;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import javax.tools.JavaCompiler;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

/** The JDK's compiler, in process. */
final class Javac {

    private Javac() {}

    /**
     * Compiles source files.
     *
     * @param options javac's options, such as the class or module path and {@code -d}
     * @param sources the files to compile
     * @return null if they compiled, else javac's diagnostics
     */
    static String compile(List<String> options, List<Path> sources) {
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        StringWriter diagnostics = new StringWriter();
        try (StandardJavaFileManager files = javac.getStandardFileManager(null, null, null)) {
            boolean compiled = javac.getTask(
                            diagnostics, files, null, options, null, files.getJavaFileObjectsFromPaths(sources))
                    .call();
            return compiled ? null : diagnostics.toString();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
