package io.dynarestore.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.dynarestore.core.kafka.ConsumerHealth;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.parallel.Isolated;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Every service, every consumer thread: each registers with its service's health, and one that
 * ends by itself (here: interrupted, as a fault in a library or a stray shutdown would) turns that
 * service's liveness DOWN, so that an orchestrator restarts it, while the other services stay UP.
 */
@Isolated("it picks its services' consumer threads out of every thread of this JVM by name")
class LivenessIT {

    static final HttpClient HTTP = HttpClient.newHttpClient();
    static RestoreStack stack;
    /** Each service, with the names of the consumer threads it must run. */
    static final Map<String, ConfigurableApplicationContext> services = new LinkedHashMap<>();

    static final Map<String, List<String>> threads = Map.of(
            "restore-api", List.of("restore-api-views", "restore-api-links"),
            "restore-planner", List.of("planner-loop"),
            "item-writer", List.of("item-writer-commands", "segment-consumer-"),
            "exporter", List.of("follow-restore.exports"),
            "notifier", List.of("notifier-status", "notifier-links", "notifier-deliveries"));

    /** Threads of this JVM before the stack started: another class's services (a shared stack) are not to be hit. */
    static Set<Thread> others;

    @BeforeAll
    static void startStack() {
        others = Set.copyOf(Thread.getAllStackTraces().keySet());
        stack = RestoreStack.infrastructure();
        services.put("restore-api", stack.startApi());
        services.put("restore-planner", stack.startPlanner());
        services.put("item-writer", stack.startWriter());
        services.put("exporter", stack.startExporter());
        services.put("notifier", stack.startNotifier(io.dynarestore.testkit.Ports.free()));
    }

    @AfterAll
    static void stopStack() {
        stack.close();
    }

    static Stream<Arguments> everyService() {
        return services.keySet().stream().map(Arguments::of);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("everyService")
    void aConsumerThreadThatEndsByItselfTurnsItsServicesLivenessDown(String service) throws Exception {
        // Given the service, live, with each of its consumer threads registered and running
        var context = services.get(service);
        var health = context.getBean(ConsumerHealth.class);
        await().atMost(Duration.ofSeconds(30)).until(() -> liveness(context) == 200);
        for (String name : threads.get(service)) {
            assertThat(health.threads().keySet()).as(service).anyMatch(n -> n.startsWith(name));
        }
        assertThat(health.threads().values()).allMatch(ConsumerHealth.State::running);

        // When one of its consumer threads is interrupted out of its loop
        String victim = threads.get(service).get(0);
        Thread thread = Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().startsWith(victim) && !others.contains(t))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no thread " + victim));
        thread.interrupt();

        // Then the service's liveness turns DOWN, naming the thread, and the services not hit stay UP
        await().atMost(Duration.ofSeconds(30)).until(() -> liveness(context) == 503);
        assertThat(health.threads().entrySet()).anySatisfy(e -> {
            assertThat(e.getKey()).startsWith(victim);
            assertThat(e.getValue().running()).isFalse();
            assertThat(e.getValue().stoppedBecause()).isNotBlank();
        });
        boolean reached = false;
        for (var other : services.entrySet()) {
            if (other.getKey().equals(service)) {
                reached = true;
            } else if (reached) {
                assertThat(liveness(other.getValue())).as(other.getKey()).isEqualTo(200);
            }
        }
    }

    static int liveness(ConfigurableApplicationContext context) throws Exception {
        return HTTP.send(
                        HttpRequest.newBuilder(RestoreStack.uri(context, "/actuator/health/liveness"))
                                .timeout(Duration.ofSeconds(5))
                                .build(),
                        HttpResponse.BodyHandlers.discarding())
                .statusCode();
    }
}
