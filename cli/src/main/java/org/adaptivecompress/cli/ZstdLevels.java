package org.adaptivecompress.cli;

import java.util.regex.Pattern;

/**
 * zstd's level options, {@code -1} to {@code -22}, which picocli cannot declare (an option named
 * by a number), rewritten to the hidden {@code --level N} before parsing; {@code --} ends the
 * options, as it does for zstd.
 */
final class ZstdLevels {

    private static final Pattern LEVEL = Pattern.compile("-(\\d{1,2})");

    private ZstdLevels() {}

    /** {@code args} with each {@code -N} before any {@code --} as {@code --level=N}. */
    static String[] expand(String... args) {
        String[] out = args.clone();
        for (int i = 0; i < out.length; i++) {
            if ("--".equals(out[i])) {
                break;
            }
            if (LEVEL.matcher(out[i]).matches()) {
                out[i] = "--level=" + out[i].substring(1);
            }
        }
        return out;
    }
}
