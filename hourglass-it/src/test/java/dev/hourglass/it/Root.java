package dev.hourglass.it;

import java.nio.file.Files;
import java.nio.file.Path;

/** The repository's root, found from the module's directory, where Maven runs the tests. */
final class Root {

    private Root() {}

    /**
     * Returns the root: the nearest directory at or above the working directory whose {@code
     * pom.xml} is the parent's.
     *
     * @return the root's absolute path
     * @throws IllegalStateException if there is none
     */
    static Path path() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path pom = dir.resolve("pom.xml");
            try {
                if (Files.isRegularFile(pom)
                        && Files.readString(pom).contains("<artifactId>hourglass-parent</artifactId>")
                        && Files.isDirectory(dir.resolve("hourglass-core"))) {
                    return dir;
                }
            } catch (java.io.IOException e) {
                throw new IllegalStateException("cannot read " + pom, e);
            }
        }
        throw new IllegalStateException("no Hourglass root above " + Path.of("").toAbsolutePath());
    }
}
