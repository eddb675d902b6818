package io.dynarestore.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import io.dynarestore.testkit.RepoRoot;
import io.dynarestore.testkit.TopicRecorder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/**
 * The chaos suite: {@code chaos.runs} runs (3 in every build, 20 with {@code -Pchaos}), each
 * injecting two faults into restores of a random history, every fault kind in turn, and killing a
 * protector while a protected table takes writes (checked at the end by {@link ProtectionCheck}).
 */
class ChaosIT {

    static final Fault[] FAULTS = Fault.values();

    @Test
    void losesNoItemInventsNoneAndPutsCapacityBackWhileProcessesAreKilledAndFrozen() throws Exception {
        int runs = Integer.getInteger("chaos.runs", 3);
        long seed = Long.getLong("chaos.seed", 20261130L);
        Duration pause = Duration.ofSeconds(Long.getLong("chaos.pause-seconds", 30));
        Path dir = RepoRoot.find().resolve("restore-chaos/target/chaos");
        ChaosStack.deleteQuietly(dir);
        String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        var report = new ChaosReport();
        var crashed = new ArrayList<String>();
        String protectionVerdict;

        // Given every part of the system as its own process
        try (var stack = ChaosStack.start(dir, classpath);
                var status = TopicRecorder.follow(stack.bootstrap(), "restore.status");
                var producer = new KafkaProducer<String, String>(Map.of(
                        ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, stack.bootstrap(),
                        ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class,
                        ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class));
                var protection = new ProtectionCheck(stack)) {
            // When each run restores a random history while two faults strike (each kind in turn)
            for (int run = 0; run < runs; run++) {
                List<Fault> faults = List.of(FAULTS[(2 * run) % FAULTS.length], FAULTS[(2 * run + 1) % FAULTS.length]);
                // the protection side is killed in every run, besides the run's own faults
                stack.killAndReplace("protector");
                var result = new ChaosRun(stack, status, producer, run, seed + run, pause).execute(faults);
                report.add(result);
                System.out.println("run " + run + ": " + result.outcomes() + " " + result.notes());
            }
            protectionVerdict = protection.verify();
            System.out.println(protectionVerdict);
            crashed.addAll(stack.crashed());
        }
        String table = report.table();
        System.out.println(table);
        Files.writeString(dir.resolve("report.md"), table + "\n\n" + protectionVerdict + "\n");

        // Then no item is lost or invented, every restore ends (completed, or failed with a reason),
        // every raised capacity is put back, and no service died by itself
        var outcomes = report.outcomes();
        assertThat(report.faults()).isEqualTo(2L * runs);
        assertThat(report.results())
                .as("every run's faults hit restores under way")
                .allSatisfy(r -> assertThat(r.faultsDuringRestores()).isPositive());
        assertThat(outcomes).as(table).allSatisfy(o -> {
            assertThat(o.completed() || o.failedWithReason())
                    .as(o.restoreId() + " ended " + o.end())
                    .isTrue();
            assertThat(o.lost()).as(o.restoreId() + " lost").isZero();
            assertThat(o.extra()).as(o.restoreId() + " extra").isZero();
            // a segment taken over counts what its earlier owner wrote after the checkpoint (from the journal)
            assertThat(o.countOff())
                    .as(o.restoreId() + " reported " + o.reported() + " items")
                    .isFalse();
            if (o.capacityPutBack() != null) {
                assertThat(o.capacityPutBack())
                        .as(o.restoreId() + " capacity put back")
                        .isTrue();
            }
        });
        assertThat(report.results())
                .as("rollbacks of the existing-table restores left their tables as before")
                .allSatisfy(r -> assertThat(r.rollback())
                        .as("run " + r.run() + " " + r.notes())
                        .isNotEqualTo(false));
        assertThat(crashed).as("services that exited by themselves").isEmpty();
    }
}
