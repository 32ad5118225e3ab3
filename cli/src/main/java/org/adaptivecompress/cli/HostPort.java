package org.adaptivecompress.cli;

import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** A {@code HOST:PORT} pair ({@code [::1]:9000} for IPv6), parsed from the command line. */
record HostPort(String host, int port) {

    @Override
    public String toString() {
        return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + port;
    }

    /** Parses {@code HOST:PORT}. */
    static final class Converter implements ITypeConverter<HostPort> {
        @Override
        public HostPort convert(String value) {
            int colon = value.lastIndexOf(':');
            if (colon < 1 || colon == value.length() - 1) {
                throw new TypeConversionException("'" + value + "' is not HOST:PORT");
            }
            String host = value.substring(0, colon);
            if (host.startsWith("[") && host.endsWith("]")) {
                host = host.substring(1, host.length() - 1);
            }
            return new HostPort(host, Ports.parse(value.substring(colon + 1)));
        }
    }
}
