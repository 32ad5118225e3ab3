package org.adaptivecompress.kafka;

import java.util.ArrayList;
import java.util.List;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.Logger;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.config.Property;

/**
 * Collects what one class logs at {@code level} and above through slf4j (bound to log4j in these
 * tests) while it is open; closing detaches it.
 */
final class LogCapture extends AbstractAppender implements AutoCloseable {

    private final Logger logger;
    private final Level previous;
    private final List<String> lines = new ArrayList<>();

    private LogCapture(Class<?> source, Level level) {
        super("capture-" + source.getSimpleName(), null, null, true, Property.EMPTY_ARRAY);
        this.logger = (Logger) LogManager.getLogger(source);
        this.previous = logger.getLevel();
        start();
        logger.addAppender(this);
        logger.setLevel(level);
    }

    /** Starts collecting what {@code source} logs at {@code level} and above. */
    static LogCapture of(Class<?> source, Level level) {
        return new LogCapture(source, level);
    }

    @Override
    public synchronized void append(LogEvent event) {
        lines.add(event.getLevel() + " " + event.getMessage().getFormattedMessage());
    }

    /** Each line collected so far: the level, a space, the formatted message. */
    synchronized List<String> lines() {
        return new ArrayList<>(lines);
    }

    @Override
    public void close() {
        logger.removeAppender(this);
        logger.setLevel(previous);
        stop();
    }
}
