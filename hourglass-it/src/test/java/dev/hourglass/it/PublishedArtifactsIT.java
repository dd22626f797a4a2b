package dev.hourglass.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.jar.JarFile;
import java.util.zip.ZipEntry;
import org.junit.jupiter.api.Test;

/**
 * Every published module is packaged as Maven Central wants it: the jar with its module-info, license
 * and notice, and beside it a sources jar and a javadoc jar documenting every exported package. Runs after {@code
 * package}, on the reactor's jars.
 */
class PublishedArtifactsIT {

    @Test
    void everyPublishedJarHasItsModuleInfoSourcesAndJavadoc() throws IOException {
        for (PublishedModules published : PublishedModules.ALL) {
            Path jar = published.jar();
            String base = jar.getFileName().toString().replaceFirst("\\.jar$", "");
            assertThat(entries(jar)).as("%s", jar).contains("module-info.class", "META-INF/LICENSE", "META-INF/NOTICE");

            Path sources = jar.resolveSibling(base + "-sources.jar");
            Set<String> sourceEntries = entries(sources);
            assertThat(sourceEntries).as("%s", sources).contains("module-info.java");
            for (String pkg : published.exports().keySet()) {
                String type = pkg.replace('.', '/') + "/" + published.exports().get(pkg) + ".java";
                assertThat(sourceEntries).as("%s", sources).contains(type);
            }

            Path javadoc = jar.resolveSibling(base + "-javadoc.jar");
            Set<String> javadocEntries = entries(javadoc);
            assertThat(javadocEntries)
                    .as("%s", javadoc)
                    .contains("index.html", published.module() + "/module-summary.html");
            for (String pkg : published.exports().keySet()) {
                String dir = published.module() + "/" + pkg.replace('.', '/') + "/";
                assertThat(javadocEntries)
                        .as("%s", javadoc)
                        .contains(
                                dir + "package-summary.html",
                                dir + published.exports().get(pkg) + ".html");
            }
        }
    }

    private static Set<String> entries(Path jar) throws IOException {
        assertThat(jar).isRegularFile();
        try (JarFile file = new JarFile(jar.toFile())) {
            Set<String> names = new TreeSet<>();
            file.stream().map(ZipEntry::getName).forEach(names::add);
            return names;
        }
    }
}
