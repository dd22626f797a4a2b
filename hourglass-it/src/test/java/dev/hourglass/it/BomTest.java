package dev.hourglass.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/**
 * The BOM has no parent (an importer would get the parent's test dependencies), so this checks
 * what inheritance would otherwise guarantee: the BOM's version and metadata are the parent's, and
 * it manages exactly the published modules.
 */
class BomTest {

    private static final Path ROOT = Root.path();

    @Test
    void bomManagesExactlyThePublishedModulesAtTheProjectVersion() throws Exception {
        Element parent = read(ROOT.resolve("pom.xml"));
        Element bom = read(ROOT.resolve("hourglass-bom").resolve("pom.xml"));
        assertThat(text(bom, "version")).isEqualTo(text(parent, "version"));
        assertThat(text(bom, "groupId")).isEqualTo(text(parent, "groupId"));
        assertThat(child(bom, "parent")).as("the BOM's parent").isNull();

        Set<String> managed = new TreeSet<>();
        Element dependencies = child(child(bom, "dependencyManagement"), "dependencies");
        for (Element dependency : children(dependencies, "dependency")) {
            assertThat(text(dependency, "groupId")).isEqualTo(text(parent, "groupId"));
            assertThat(text(dependency, "version")).isEqualTo("${project.version}");
            managed.add(text(dependency, "artifactId"));
        }
        Set<String> published = new TreeSet<>();
        for (Element module : children(child(parent, "modules"), "module")) {
            Element pom = read(ROOT.resolve(module.getTextContent()).resolve("pom.xml"));
            Element properties = child(pom, "properties");
            boolean skipsDeploy = properties != null
                    && child(properties, "maven.deploy.skip") != null
                    && text(properties, "maven.deploy.skip").equals("true");
            boolean isJar =
                    child(pom, "packaging") == null || text(pom, "packaging").equals("jar");
            if (isJar && !skipsDeploy) {
                published.add(text(pom, "artifactId"));
            }
        }
        assertThat(managed).as("the BOM's modules").isEqualTo(published);
        assertThat(published)
                .as("the published modules")
                .isEqualTo(PublishedModules.ALL.stream()
                        .map(PublishedModules::artifactId)
                        .collect(Collectors.toCollection(TreeSet::new)));
    }

    @Test
    void bomCarriesTheParentsMetadata() throws Exception {
        Element parent = read(ROOT.resolve("pom.xml"));
        Element bom = read(ROOT.resolve("hourglass-bom").resolve("pom.xml"));
        for (String field : List.of("url", "inceptionYear", "licenses", "developers", "scm", "issueManagement")) {
            assertThat(child(parent, field)).as("the parent's <%s>", field).isNotNull();
            assertThat(normalized(child(bom, field)))
                    .as("the BOM's <%s>", field)
                    .isEqualTo(normalized(child(parent, field)));
        }
    }

    private static Element read(Path pom) throws Exception {
        assertThat(pom).isRegularFile();
        DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        try (var in = Files.newInputStream(pom)) {
            return factory.newDocumentBuilder().parse(in).getDocumentElement();
        }
    }

    private static List<Element> children(Element parent, String name) {
        List<Element> found = new ArrayList<>();
        for (Node node = parent.getFirstChild(); node != null; node = node.getNextSibling()) {
            if (node instanceof Element element && element.getTagName().equals(name)) {
                found.add(element);
            }
        }
        return found;
    }

    private static Element child(Element parent, String name) {
        List<Element> found = children(parent, name);
        return found.isEmpty() ? null : found.get(0);
    }

    private static String text(Element parent, String name) {
        Element element = child(parent, name);
        assertThat(element).as("<%s> in <%s>", name, parent.getTagName()).isNotNull();
        return element.getTextContent().trim();
    }

    /** The element's text with whitespace collapsed (attributes, such as inheritance flags, aside). */
    private static String normalized(Element element) {
        return element == null ? null : element.getTextContent().trim().replaceAll("\\s+", " ");
    }
}
