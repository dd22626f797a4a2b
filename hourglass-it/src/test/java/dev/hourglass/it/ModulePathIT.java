package dev.hourglass.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Compiles and runs a small application on the module path that requires every published module
 * and names one public type of every package each must export, from the packaged jars (this runs
 * after {@code package}). Fails when a module cannot be resolved, a package is not exported, or a
 * module exports a package that {@link PublishedModules#ALL} does not list.
 */
class ModulePathIT {

    @TempDir
    Path work;

    @Test
    void eachPublishedModuleHasAModuleInfoExportingExactlyItsPackages() {
        ModuleFinder finder = ModuleFinder.of(PublishedModules.modulePath().toArray(Path[]::new));
        for (PublishedModules published : PublishedModules.ALL) {
            assertThat(published.jar()).as("%s's jar", published.artifactId()).isRegularFile();
            ModuleDescriptor descriptor = finder.find(published.module())
                    .orElseThrow(() -> new AssertionError("no module " + published.module()))
                    .descriptor();
            assertThat(descriptor.isAutomatic())
                    .as("%s has a module-info", descriptor.name())
                    .isFalse();
            Set<String> exported = descriptor.exports().stream()
                    .filter(e -> !e.isQualified())
                    .map(ModuleDescriptor.Exports::source)
                    .collect(Collectors.toCollection(TreeSet::new));
            assertThat(exported)
                    .as("packages %s exports (list a new one in PublishedModules.ALL)", descriptor.name())
                    .isEqualTo(new TreeSet<>(published.exports().keySet()));
        }
    }

    @Test
    void anApplicationRequiringEveryPublishedModuleCompilesAndRuns() throws Exception {
        Path sources = work.resolve("src");
        Files.createDirectories(sources.resolve("app"));
        Path moduleInfo = Files.writeString(sources.resolve("module-info.java"), moduleInfo());
        Path main = Files.writeString(sources.resolve("app").resolve("Main.java"), mainClass());
        String modulePath = PublishedModules.modulePath().stream()
                .map(Path::toString)
                .collect(Collectors.joining(File.pathSeparator));

        Path classes = work.resolve("classes");
        String diagnostics = Javac.compile(
                List.of("-Xlint:all", "-Werror", "--module-path", modulePath, "-d", classes.toString()),
                List.of(moduleInfo, main));
        assertThat(diagnostics).as("javac on the module path").isNull();

        Process java = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "--module-path",
                        classes + File.pathSeparator + modulePath,
                        "--module",
                        "app/app.Main")
                .redirectErrorStream(true)
                .start();
        String output = new String(java.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(java.waitFor(60, TimeUnit.SECONDS))
                .as("the application ends")
                .isTrue();
        assertThat(java.exitValue()).as(output).isZero();
        for (PublishedModules published : PublishedModules.ALL) {
            for (Map.Entry<String, String> type : published.exports().entrySet()) {
                assertThat(output).contains(type.getKey() + "." + type.getValue() + " in module " + published.module());
            }
        }
        assertThat(output).contains("a timer fired on the module path");
    }

    private static String moduleInfo() {
        StringBuilder text = new StringBuilder("module app {\n");
        for (PublishedModules published : PublishedModules.ALL) {
            text.append("    requires ").append(published.module()).append(";\n");
        }
        return text.append("}\n").toString();
    }

    /** Names every type by its class literal (compile-time access), prints its module, fires a timer. */
    private static String mainClass() {
        StringBuilder types = new StringBuilder();
        for (PublishedModules published : PublishedModules.ALL) {
            for (Map.Entry<String, String> type : new TreeMap<>(published.exports()).entrySet()) {
                types.append("            ")
                        .append(type.getKey())
                        .append('.')
                        .append(type.getValue())
                        .append(".class,\n");
            }
        }
        return """
                package app;

                import dev.hourglass.timer.Timer;
                import dev.hourglass.timer.Timers;
                import java.time.Duration;
                import java.util.concurrent.CountDownLatch;
                import java.util.concurrent.TimeUnit;

                public final class Main {
                    private Main() {}

                    public static void main(String[] args) throws InterruptedException {
                        for (Class<?> type : new Class<?>[] {
                %s        }) {
                            System.out.println(type.getName() + " in module " + type.getModule().getName());
                        }
                        CountDownLatch fired = new CountDownLatch(1);
                        Timer timer = Timers.builder().startTimerThread();
                        try {
                            timer.schedule(fired::countDown, Duration.ofMillis(1));
                            if (!fired.await(30, TimeUnit.SECONDS)) {
                                throw new AssertionError("the timer did not fire");
                            }
                        } finally {
                            timer.close();
                        }
                        System.out.println("a timer fired on the module path");
                    }
                }
                """
                .formatted(types);
    }
}
