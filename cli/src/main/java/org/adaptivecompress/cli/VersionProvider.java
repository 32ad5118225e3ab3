package org.adaptivecompress.cli;

import picocli.CommandLine.IVersionProvider;

/** The version from the jar's manifest, or "development build" when run from classes. */
final class VersionProvider implements IVersionProvider {

    @Override
    public String[] getVersion() {
        String version = AdaptiveCompressCli.class.getPackage().getImplementationVersion();
        return new String[] {AdaptiveCompressCli.NAME + " " + (version == null ? "development build" : version)};
    }
}
