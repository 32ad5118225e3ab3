package org.adaptivecompress.bom;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/**
 * The BOM manages every published module at the build's version, and nothing else: it has no
 * parent (so that importing it brings only our versions), so nothing else keeps its version and
 * its list in step with the build.
 */
class BomTest {

    private static final Path ROOT = Path.of("..");

    @Test
    void managesEveryPublishedModuleAtTheBuildsVersion() throws Exception {
        Document parent = read(ROOT.resolve("pom.xml"));
        String version = text(parent.getDocumentElement(), "version");
        Map<String, String> published = new TreeMap<>();
        for (String module : children(element(parent.getDocumentElement(), "modules"), "module")) {
            Element pom = read(ROOT.resolve(module).resolve("pom.xml")).getDocumentElement();
            String packaging = text(pom, "packaging");
            Element properties = element(pom, "properties");
            boolean skipsDeploy = properties != null && "true".equals(text(properties, "maven.deploy.skip"));
            if (!skipsDeploy && (packaging == null || packaging.equals("jar"))) {
                published.put(text(pom, "artifactId"), version);
            }
        }

        Element bom = read(Path.of("pom.xml")).getDocumentElement();
        Map<String, String> managed = new TreeMap<>();
        Element dependencies = element(element(bom, "dependencyManagement"), "dependencies");
        for (Element d : elements(dependencies, "dependency")) {
            managed.put(text(d, "artifactId"), text(d, "version"));
        }

        assertThat(text(bom, "version")).isEqualTo(version);
        assertThat(published).isNotEmpty();
        assertThat(managed).isEqualTo(published);
    }

    private static Document read(Path pom) throws Exception {
        assertThat(pom).exists();
        try (var in = Files.newInputStream(pom)) {
            return DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(in);
        }
    }

    /** The text of {@code parent}'s first child element {@code name}, or null. */
    private static String text(Element parent, String name) {
        Element e = element(parent, name);
        return e == null ? null : e.getTextContent().trim();
    }

    /** {@code parent}'s first child element {@code name}, or null. */
    private static Element element(Element parent, String name) {
        List<Element> found = elements(parent, name);
        return found.isEmpty() ? null : found.get(0);
    }

    private static List<String> children(Element parent, String name) {
        List<String> out = new ArrayList<>();
        for (Element e : elements(parent, name)) {
            out.add(e.getTextContent().trim());
        }
        return out;
    }

    private static List<Element> elements(Element parent, String name) {
        List<Element> out = new ArrayList<>();
        for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element && ((Element) n).getTagName().equals(name)) {
                out.add((Element) n);
            }
        }
        return out;
    }
}
