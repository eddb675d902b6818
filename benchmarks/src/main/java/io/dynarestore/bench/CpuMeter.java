package io.dynarestore.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;

/**
 * CPU time spent between two snapshots: this JVM's threads grouped by the start of their names, and
 * another process (dynalite) as a whole. A thread that ended between the snapshots is not counted,
 * so the groups measured are pools that live through the measurement.
 */
final class CpuMeter {

    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    private final ProcessHandle other;
    private final Map<String, Long> before;
    private final long otherBefore;
    private final long processBefore;
    private final long gcBefore;
    private final long jitBefore;

    private CpuMeter(ProcessHandle other) {
        this.other = other;
        this.before = byGroup();
        this.otherBefore = otherCpu();
        this.processBefore = processCpu();
        this.gcBefore = gcMillis();
        this.jitBefore = ManagementFactory.getCompilationMXBean().getTotalCompilationTime();
    }

    /** Wall seconds the collectors reported since the start (pauses and concurrent cycles), and the JIT's. */
    String gcAndJit() {
        return String.format(
                "GC %.1f s, JIT %.1f s",
                (gcMillis() - gcBefore) / 1e3,
                (ManagementFactory.getCompilationMXBean().getTotalCompilationTime() - jitBefore) / 1e3);
    }

    private static long gcMillis() {
        return ManagementFactory.getGarbageCollectorMXBeans().stream()
                .mapToLong(b -> Math.max(0, b.getCollectionTime()))
                .sum();
    }

    /** This JVM's CPU seconds since the start, every thread counted (GC and JIT included). */
    double processSeconds() {
        return (processCpu() - processBefore) / 1e9;
    }

    /** This JVM's CPU time so far, in nanoseconds. */
    static long processCpu() {
        return ProcessHandle.current()
                .info()
                .totalCpuDuration()
                .map(Duration::toNanos)
                .orElse(0L);
    }

    /** Starts measuring this JVM's threads and {@code other}'s whole process. */
    static CpuMeter start(ProcessHandle other) {
        return new CpuMeter(other);
    }

    /** CPU seconds per group of threads since the start, and {@code "other process"} for the process. */
    Map<String, Double> seconds() {
        var now = byGroup();
        var spent = new TreeMap<String, Double>();
        now.forEach((group, nanos) -> spent.put(group, (nanos - before.getOrDefault(group, 0L)) / 1e9));
        spent.put("other process", (otherCpu() - otherBefore) / 1e9);
        return spent;
    }

    private long otherCpu() {
        return other.info().totalCpuDuration().map(Duration::toNanos).orElse(0L);
    }

    private Map<String, Long> byGroup() {
        var groups = new TreeMap<String, Long>();
        for (var info : threads.getThreadInfo(threads.getAllThreadIds())) {
            if (info == null) {
                continue;
            }
            long cpu = threads.getThreadCpuTime(info.getThreadId());
            if (cpu > 0) {
                groups.merge(group(info.getThreadName()), cpu, Long::sum);
            }
        }
        return groups;
    }

    /** A thread's name without its numbers and client ids: {@code segment-writer-3} is {@code segment-writer}. */
    static String group(String name) {
        if (name.startsWith("kafka-producer") || name.startsWith("kafka-coordinator")) {
            return "kafka clients";
        }
        if (name.startsWith("qtp") || name.startsWith("S3Proxy") || name.contains("jetty")) {
            return "s3proxy";
        }
        String letters = name.replaceAll("[-_ ]?[0-9]+.*$", "");
        return letters.isEmpty() ? "other" : letters;
    }
}
