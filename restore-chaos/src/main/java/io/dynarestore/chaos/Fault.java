package io.dynarestore.chaos;

/** What the chaos driver does to the system while restores run. */
public enum Fault {
    KILL_WRITER("kill -9 an item-writer, start another"),
    KILL_PLANNER("kill -9 the planner, start another"),
    KILL_EXPORTER("kill -9 the exporter, start another"),
    RESTART_BROKER("stop the Kafka broker, start it again"),
    PAUSE_DYNAMODB("SIGSTOP dynalite for the pause, then SIGCONT"),
    PAUSE_S3("SIGSTOP S3Proxy for the pause, then SIGCONT");

    final String description;

    Fault(String description) {
        this.description = description;
    }
}
