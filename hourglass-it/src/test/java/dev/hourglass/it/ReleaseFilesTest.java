package dev.hourglass.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The files a release needs say what the build does: license, changelog, README coordinates. */
class ReleaseFilesTest {

    private static final Path ROOT = Root.path();

    @Test
    void licenseIsApacheTwoAndNoticeNamesIt() throws IOException {
        String license = Files.readString(ROOT.resolve("LICENSE"));
        assertThat(license)
                .contains("Apache License", "Version 2.0, January 2004", "END OF TERMS AND CONDITIONS")
                .contains("APPENDIX: How to apply the Apache License to your work.");
        assertThat(Files.readString(ROOT.resolve("NOTICE"))).contains("Apache License, Version 2.0");
        assertThat(Files.readString(ROOT.resolve("pom.xml")))
                .contains("<name>Apache-2.0</name>")
                .contains("<url>https://www.apache.org/licenses/LICENSE-2.0.txt</url>");
    }

    @Test
    void readmeCoordinatesNameThePublishedModulesAtTheNextRelease() throws IOException {
        String readme = Files.readString(ROOT.resolve("README.md"));
        Set<String> published = PublishedModules.ALL.stream()
                .map(PublishedModules::artifactId)
                .collect(Collectors.toCollection(TreeSet::new));
        published.add("hourglass-bom");

        List<String> artifacts = new ArrayList<>();
        all(Pattern.compile("<artifactId>(hourglass-[a-z]+)</artifactId>"), readme, artifacts);
        all(Pattern.compile("\"dev\\.hourglass:(hourglass-[a-z]+)[:\"]"), readme, artifacts);
        assertThat(artifacts).as("artifacts in the README's coordinates").contains("hourglass-bom", "hourglass-core");
        assertThat(published).containsAll(artifacts);

        List<String> versions = new ArrayList<>();
        all(Pattern.compile("<artifactId>hourglass-bom</artifactId>\\s*<version>([^<]+)</version>"), readme, versions);
        all(Pattern.compile("\"dev\\.hourglass:hourglass-bom:([^\"]+)\""), readme, versions);
        assertThat(versions)
                .as("versions in the README's coordinates")
                .hasSize(2)
                .containsOnly(nextRelease());
    }

    @Test
    void changelogHasAnUnreleasedSectionForTheNextReleaseAndLinksEveryVersion() throws IOException {
        String changelog = Files.readString(ROOT.resolve("CHANGELOG.md"));
        assertThat(changelog).startsWith("# Changelog").contains("keepachangelog.com");
        assertThat(changelog).contains("## [Unreleased]\n\nTo be released as " + nextRelease());
        List<String> versions = new ArrayList<>();
        all(Pattern.compile("(?m)^## \\[(\\d+\\.\\d+\\.\\d+)] - \\d{4}-\\d{2}-\\d{2}$"), changelog, versions);
        assertThat(versions).as("released versions").isNotEmpty();
        for (String version : versions) {
            assertThat(changelog).contains("\n[" + version + "]: https://");
        }
        assertThat(changelog).contains("\n[Unreleased]: https://");
    }

    /** The parent's version without -SNAPSHOT. */
    private static String nextRelease() throws IOException {
        Matcher version = Pattern.compile("</artifactId>\\s*<version>([^<]+)</version>")
                .matcher(Files.readString(ROOT.resolve("pom.xml")));
        assertThat(version.find()).isTrue();
        return version.group(1).replace("-SNAPSHOT", "");
    }

    private static void all(Pattern pattern, String text, List<String> into) {
        Matcher matcher = pattern.matcher(text);
        while (matcher.find()) {
            into.add(matcher.group(1));
        }
    }
}
