package org.adaptivecompress.metrics;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;
import javax.management.Attribute;
import javax.management.AttributeList;
import javax.management.AttributeNotFoundException;
import javax.management.DynamicMBean;
import javax.management.InstanceAlreadyExistsException;
import javax.management.InstanceNotFoundException;
import javax.management.JMException;
import javax.management.MBeanAttributeInfo;
import javax.management.MBeanInfo;
import javax.management.MBeanServer;
import javax.management.MalformedObjectNameException;
import javax.management.ObjectName;
import org.adaptivecompress.engine.CompressionStatistics;

/**
 * Statistics as a read-only MBean on the platform MBean server, opt-in: one per stream or group
 * a user names, as {@code org.adaptivecompress:type=<type>,name="<name>"}. Each metric is an
 * attribute under its name (for a metric kept per rung or reason, the sum over them), and each
 * of its series is one more, as {@code name[tag value]}, such as
 * {@code adaptive.compress.input[zstd:3]}; counters are {@code Long}, gauges {@code Double}.
 * Every read takes a fresh snapshot. {@link #close()} unregisters it.
 *
 * @param <S> the snapshot the attributes are read from
 */
public final class StatisticsMBean<S> implements DynamicMBean, AutoCloseable {

    /** The JMX domain of every MBean of this library. */
    public static final String DOMAIN = "org.adaptivecompress";

    private final ObjectName objectName;
    private final Supplier<S> source;
    private final List<StatisticsMetric<S>> metrics;
    private final MBeanServer server;

    private StatisticsMBean(ObjectName objectName, Supplier<S> source, List<StatisticsMetric<S>> metrics,
            MBeanServer server) {
        this.objectName = objectName;
        this.source = source;
        this.metrics = List.copyOf(metrics);
        this.server = server;
    }

    /**
     * Registers {@code source}'s statistics (an {@code AdaptiveOutputStream}'s, a Netty
     * encoder's, a {@link StatisticsGroup}'s) as {@code type=AdaptiveCompression} with the
     * {@link CompressionMetrics}.
     *
     * @throws IllegalArgumentException if an MBean of that name is registered already
     */
    public static StatisticsMBean<CompressionStatistics> register(String name, Supplier<CompressionStatistics> source) {
        return register("AdaptiveCompression", name, source, CompressionMetrics.ALL);
    }

    /**
     * Registers {@code source}'s statistics with these metrics as
     * {@code org.adaptivecompress:type=<type>,name="<name>"}; a null snapshot (a source not
     * started yet) reads as 0.
     *
     * @throws IllegalArgumentException if an MBean of that name is registered already
     */
    public static <S> StatisticsMBean<S> register(String type, String name, Supplier<S> source,
            List<StatisticsMetric<S>> metrics) {
        Objects.requireNonNull(type, "type is null");
        Objects.requireNonNull(name, "name is null");
        Objects.requireNonNull(source, "source is null");
        Objects.requireNonNull(metrics, "metrics is null");
        ObjectName objectName;
        try {
            objectName = new ObjectName(DOMAIN + ":type=" + ObjectName.quote(type) + ",name=" + ObjectName.quote(name));
        } catch (MalformedObjectNameException e) {
            throw new IllegalArgumentException("not a valid MBean name: type '" + type + "', name '" + name + "'", e);
        }
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        StatisticsMBean<S> bean = new StatisticsMBean<>(objectName, source, metrics, server);
        try {
            server.registerMBean(bean, objectName);
        } catch (InstanceAlreadyExistsException e) {
            throw new IllegalArgumentException("an MBean named " + objectName + " is registered already", e);
        } catch (JMException e) {
            throw new IllegalStateException("the platform MBean server refused " + objectName, e);
        }
        return bean;
    }

    /** The name it is registered under. */
    public ObjectName objectName() {
        return objectName;
    }

    @Override
    public Object getAttribute(String attribute) throws AttributeNotFoundException {
        S snapshot = source.get();
        for (StatisticsMetric<S> m : metrics) {
            if (attribute.equals(m.name())) {
                return box(m, snapshot == null ? 0 : sum(m, snapshot));
            }
            if (m.tagKey() != null && attribute.startsWith(m.name() + "[") && attribute.endsWith("]")) {
                String tag = attribute.substring(m.name().length() + 1, attribute.length() - 1);
                int i = snapshot == null ? -1 : m.tagValues(snapshot).indexOf(tag);
                if (i >= 0) {
                    return box(m, m.value(snapshot, i));
                }
            }
        }
        throw new AttributeNotFoundException("no attribute " + attribute + " in " + objectName);
    }

    private static <S> double sum(StatisticsMetric<S> m, S snapshot) {
        if (m.tagKey() == null) {
            return m.value(snapshot, 0);
        }
        double total = 0;
        for (int i = 0; i < m.tagValues(snapshot).size(); i++) {
            total += m.value(snapshot, i);
        }
        return total;
    }

    private static Object box(StatisticsMetric<?> m, double value) {
        return m.type() == StatisticsMetric.Type.COUNTER ? (Object) (long) value : (Object) value;
    }

    @Override
    public AttributeList getAttributes(String[] attributes) {
        AttributeList list = new AttributeList();
        for (String a : attributes) {
            try {
                list.add(new Attribute(a, getAttribute(a)));
            } catch (AttributeNotFoundException e) {
                // JMX's contract: attributes that cannot be read are left out of the list.
            }
        }
        return list;
    }

    @Override
    public void setAttribute(Attribute attribute) throws AttributeNotFoundException {
        throw new AttributeNotFoundException("statistics are read-only: " + attribute.getName());
    }

    @Override
    public AttributeList setAttributes(AttributeList attributes) {
        return new AttributeList();
    }

    @Override
    public Object invoke(String actionName, Object[] params, String[] signature) {
        throw new UnsupportedOperationException("statistics have no operations: " + actionName);
    }

    @Override
    public MBeanInfo getMBeanInfo() {
        S snapshot = source.get();
        List<MBeanAttributeInfo> attributes = new ArrayList<>();
        for (StatisticsMetric<S> m : metrics) {
            String type = m.type() == StatisticsMetric.Type.COUNTER ? Long.class.getName() : Double.class.getName();
            String unit = m.unit() == null ? "" : " (" + m.unit() + ")";
            attributes.add(new MBeanAttributeInfo(m.name(), type,
                    (m.tagKey() == null ? "" : "Over every " + m.tagKey() + ": ") + m.description() + unit,
                    true, false, false));
            if (m.tagKey() != null && snapshot != null) {
                for (String tag : m.tagValues(snapshot)) {
                    attributes.add(new MBeanAttributeInfo(m.name() + "[" + tag + "]", type,
                            m.tagKey() + " " + tag + ": " + m.description() + unit, true, false, false));
                }
            }
        }
        return new MBeanInfo(getClass().getName(), "adaptive-compress statistics",
                attributes.toArray(new MBeanAttributeInfo[0]), null, null, null);
    }

    /** Unregisters the MBean; idempotent. */
    @Override
    public void close() {
        try {
            server.unregisterMBean(objectName);
        } catch (InstanceNotFoundException e) {
            // Closed before, or unregistered by someone else: either way it is gone.
        } catch (JMException e) {
            throw new IllegalStateException("the platform MBean server did not unregister " + objectName, e);
        }
    }
}
