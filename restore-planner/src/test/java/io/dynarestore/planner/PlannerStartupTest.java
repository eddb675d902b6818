package io.dynarestore.planner;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The planner refuses to start with access settings that would let unproven messages act. */
class PlannerStartupTest {

    static void start(String... extra) {
        var args = new java.util.ArrayList<>(java.util.List.of(
                "--server.port=0", "--KAFKA_BOOTSTRAP_SERVERS=127.0.0.1:1", "--spring.main.web-application-type=none"));
        args.addAll(java.util.List.of(extra));
        PlannerApplication.builder().run(args.toArray(new String[0])).close();
    }

    @Test
    void refusesToStartInProductionWhenUnidentifiedMessagesWouldGetAnyRole() {
        assertThatThrownBy(() -> start("--spring.profiles.active=local,prod"))
                .hasStackTraceContaining("planner.access.unidentified grants")
                .hasStackTraceContaining("prod profile");
    }

    @Test
    void refusesAPrincipalWithRolesButNoKey() {
        assertThatThrownBy(() ->
                        start("--spring.profiles.active=local", "--planner.access.principals.orders-service=restore"))
                .hasStackTraceContaining("planner.access.keys.orders-service has no key");
    }

    @Test
    void refusesAKeyTooShortToResistGuessing() {
        assertThatThrownBy(() -> start(
                        "--spring.profiles.active=local",
                        "--planner.access.principals.orders-service=restore",
                        "--planner.access.keys.orders-service=short"))
                .hasStackTraceContaining("shorter than 32 characters");
    }
}
