package dev.hourglass.it;

import java.io.File;
import java.lang.module.Configuration;
import java.lang.module.FindException;
import java.lang.module.ModuleFinder;
import java.lang.module.ResolvedModule;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The published modules, what each must export, and where their built jars are. The one list to
 * extend when a module or a package is added (the tests fail until it is).
 *
 * @param artifactId the Maven artifact
 * @param module the JPMS module name
 * @param exports each package the module exports, with one public type of that package
 */
record PublishedModules(String artifactId, String module, Map<String, String> exports) {

    /** Every published jar module; the BOM lists exactly these. */
    static final List<PublishedModules> ALL = List.of(
            new PublishedModules(
                    "hourglass-core",
                    "dev.hourglass.core",
                    Map.of(
                            "dev.hourglass.time", "NanoClock",
                            "dev.hourglass.queue", "TimerQueues",
                            "dev.hourglass.timer", "Timers",
                            "dev.hourglass.loop", "EventLoop",
                            "dev.hourglass.executor", "TimerExecutors")),
            new PublishedModules(
                    "hourglass-patterns", "dev.hourglass.patterns", Map.of("dev.hourglass.patterns", "IdleDetector")),
            new PublishedModules(
                    "hourglass-redis", "dev.hourglass.redis", Map.of("dev.hourglass.redis", "RedisTimers")),
            new PublishedModules(
                    "hourglass-micrometer",
                    "dev.hourglass.micrometer",
                    Map.of("dev.hourglass.micrometer", "TimerMetrics")),
            new PublishedModules(
                    "hourglass-netty", "dev.hourglass.netty", Map.of("dev.hourglass.netty", "NettyTimers")));

    /**
     * Returns the module path of the published modules: their jars and what they need, as resolving
     * them from the test's class path selects (entries that are no module at all are left out).
     *
     * @return the jars, the published modules' own first
     * @throws FindException if a published module or one it requires is missing
     */
    static List<Path> modulePath() {
        List<Path> candidates = new ArrayList<>();
        Path ownTarget = Path.of("target").toAbsolutePath();
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            Path path = Path.of(entry).toAbsolutePath();
            if (!Files.exists(path) || path.startsWith(ownTarget)) {
                continue;
            }
            try {
                ModuleFinder.of(path).findAll();
                candidates.add(path);
            } catch (FindException e) {
                // not usable as a module, so nothing a published module can require
            }
        }
        Configuration resolved = Configuration.resolve(
                ModuleFinder.of(candidates.toArray(Path[]::new)),
                List.of(ModuleLayer.boot().configuration()),
                ModuleFinder.of(),
                ALL.stream().map(PublishedModules::module).collect(Collectors.toList()));
        List<Path> path = new ArrayList<>();
        for (ResolvedModule module : resolved.modules()) {
            module.reference().location().map(Path::of).ifPresent(path::add);
        }
        path.sort((a, b) -> Boolean.compare(!isOurs(a), !isOurs(b)));
        return path;
    }

    /**
     * Returns this module's built jar.
     *
     * @return the jar on the test's class path
     * @throws AssertionError if the class path holds no jar of it (a build that stopped before package)
     */
    Path jar() {
        for (Path path : modulePath()) {
            if (path.toString().contains(artifactId)) {
                if (!path.toString().endsWith(".jar")) {
                    throw new AssertionError(artifactId + " is not packaged yet (" + path + "): run after package");
                }
                return path;
            }
        }
        throw new AssertionError("no " + artifactId + " on the module path " + modulePath());
    }

    private static boolean isOurs(Path path) {
        return path.toString().contains("hourglass-");
    }
}
