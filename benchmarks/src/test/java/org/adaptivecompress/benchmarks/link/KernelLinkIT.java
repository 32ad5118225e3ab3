package org.adaptivecompress.benchmarks.link;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import org.adaptivecompress.benchmarks.link.net.KernelLink;
import org.adaptivecompress.benchmarks.link.net.Link;
import org.adaptivecompress.benchmarks.link.net.LinkSetupException;
import org.adaptivecompress.benchmarks.link.net.Namespace;
import org.junit.jupiter.api.Test;

/** The kernel-shaped link, where this machine lets us make one (root, ip netns, tc); skipped elsewhere. */
class KernelLinkIT extends LinkHarnessContract {

    @Override
    Link openLink() {
        try {
            return KernelLink.open();
        } catch (LinkSetupException e) {
            assumeTrue(false, "no kernel-shaped link here (needs root, ip netns and tc): " + e.getMessage());
            throw new AssertionError(e);
        }
    }

    @Test
    void itsNamespaceExistsWhileOpenAndIsGoneAfterClose() {
        KernelLink kernel = (KernelLink) link;

        assertThat(Namespace.exists(kernel.namespaceName())).isTrue();
        assertThat(kernel.netem()).isPresent();
        kernel.close();
        assertThat(Namespace.exists(kernel.namespaceName())).isFalse();
    }

    @Test
    void connectionsDoNotInheritTheLastOnesTcpMetrics() throws LinkSetupException {
        KernelLink kernel = (KernelLink) link;

        assertThat(kernel.sysctl("net.ipv4.tcp_no_metrics_save")).isEqualTo("1");
    }
}
