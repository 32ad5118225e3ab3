package org.adaptivecompress.cli;

import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** TCP port numbers from the command line, 0 to 65535 (0: any free port, for {@code receive}). */
final class Ports implements ITypeConverter<Integer> {

    @Override
    public Integer convert(String value) {
        return parse(value);
    }

    static int parse(String value) {
        try {
            int port = Integer.parseInt(value.trim());
            if (port >= 0 && port <= 65535) {
                return port;
            }
        } catch (NumberFormatException e) {
            // reported below, with the value
        }
        throw new TypeConversionException("'" + value + "' is not a port number (0-65535)");
    }
}
