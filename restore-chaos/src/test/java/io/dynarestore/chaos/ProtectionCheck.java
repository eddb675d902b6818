package io.dynarestore.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import io.dynarestore.core.vault.VaultCatalog;
import io.dynarestore.core.vault.VaultLayout;
import io.dynarestore.protector.VaultImage;
import io.dynarestore.testkit.LocalApi;
import io.dynarestore.testkit.RandomItems;
import io.dynarestore.testkit.RecordedWorkload;
import io.dynarestore.testkit.StreamedTables;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * The protection side under chaos: a table protected through restore-api (SCAN backups, a Streams
 * change log) takes writes all through the suite, while the protectors are killed and every fault of
 * the runs strikes; at the end the vault must restore it exactly, at random seconds, to what the
 * workload's own record says it was.
 */
final class ProtectionCheck implements AutoCloseable {

    static final String TABLE = "chaos-protected";
    private final ChaosStack stack;
    private final DynamoDbClient dynamo;
    private final RecordedWorkload workload;
    private final Thread writer;
    private volatile boolean running = true;
    private volatile Throwable failure;
    private Instant protectedAt;

    ProtectionCheck(ChaosStack stack) throws Exception {
        this.stack = stack;
        this.dynamo = stack.dynamoAsServices();
        var shape = new RandomItems.Shape("pk", "S", "sk", "N", Map.of());
        StreamedTables.create(dynamo, TABLE, shape);
        this.workload = new RecordedWorkload(dynamo, TABLE, shape, 4242, 200);
        var response = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(stack.api("/tables/" + TABLE + "/protection"))
                                .header(LocalApi.HEADER, LocalApi.KEY)
                                .header("Content-Type", "application/json")
                                .PUT(HttpRequest.BodyPublishers.ofString("""
                        {"backups": {"method": "SCAN", "every": "PT30S", "retention": "P1D"},
                         "changeLog": {"method": "STREAMS", "flushEvery": "PT2S"}}"""))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        protectedAt = Instant.now();
        this.writer = new Thread(this::write, "chaos-protected-writes");
        writer.setDaemon(true);
        writer.start();
    }

    private void write() {
        while (running) {
            try {
                workload.step();
                Thread.sleep(50);
            } catch (InterruptedException e) {
                return;
            } catch (Throwable t) {
                failure = t;
                return;
            }
        }
    }

    /** Stops writing and checks the vault: no gap, and the image at random seconds equals the replay. */
    String verify() throws Exception {
        running = false;
        writer.join(TimeUnit.SECONDS.toMillis(10));
        assertThat(failure).isNull();
        var vault = new VaultImage(stack.s3(), new VaultCatalog(stack.s3(), new VaultLayout(ChaosStack.BUCKET, "")));
        long last = workload.lastSecond();
        Instant deadline = Instant.now().plus(Duration.ofMinutes(2));
        while (true) {
            var latest = vault.coverage(ChaosStack.ACCOUNT, ChaosStack.REGION, TABLE)
                    .availability()
                    .latestRestorable();
            if (latest != null && latest.getEpochSecond() >= last) {
                break;
            }
            assertThat(Instant.now())
                    .as("the change log of " + TABLE + " catches up with its last write")
                    .isBefore(deadline);
            Thread.sleep(500);
        }
        var availability =
                vault.coverage(ChaosStack.ACCOUNT, ChaosStack.REGION, TABLE).availability();
        assertThat(availability.gaps()).as(TABLE + " has no gap").isEmpty();
        long first = availability.windows().get(0).start().getEpochSecond();
        var seconds = new ArrayList<Long>();
        for (long s = first; s <= last; s++) {
            if (!workload.isAmbiguous(s)) {
                seconds.add(s);
            }
        }
        Collections.shuffle(seconds, new Random(99));
        var sample = seconds.subList(0, Math.min(60, seconds.size()));
        for (long s : sample) {
            Instant t = Instant.ofEpochSecond(s);
            var image = vault.at(ChaosStack.ACCOUNT, ChaosStack.REGION, TABLE, t, workload.keyAttributes());
            assertThat(image).as(TABLE + " restorable at " + t).isPresent();
            assertThat(image.get()).as(TABLE + " at " + t).isEqualTo(workload.imageAt(t));
        }
        return TABLE + ": " + workload.writes().size() + " writes over " + (last - protectedAt.getEpochSecond())
                + " s, restorable from " + availability.windows().get(0).start() + ", " + sample.size()
                + " random seconds equal to the replay, no gap";
    }

    @Override
    public void close() {
        running = false;
    }
}
