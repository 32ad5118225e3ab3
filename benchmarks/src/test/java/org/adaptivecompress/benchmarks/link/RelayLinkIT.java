package org.adaptivecompress.benchmarks.link;

import java.io.IOException;
import java.io.PrintStream;
import org.adaptivecompress.benchmarks.link.net.Link;
import org.adaptivecompress.benchmarks.link.net.Links;

/** The pacing relay, the fallback link: runs everywhere (in a namespace of its own where it can). */
class RelayLinkIT extends LinkHarnessContract {

    @Override
    Link openLink() throws IOException {
        return Links.open(Links.Choice.RELAY, new PrintStream(System.err, true));
    }
}
