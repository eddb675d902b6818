package io.dynarestore.core.kafka;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;

/**
 * Sends a record that cannot be processed to {@code <topic>.DLT}, on the same partition number,
 * with its key, value and headers unchanged and the reason in spring-kafka's {@code kafka_dlt-*}
 * headers, so that the message is never lost and spring-kafka tooling can read it.
 */
public final class DeadLetters {

    public static final String ORIGINAL_TOPIC = "kafka_dlt-original-topic";
    public static final String ORIGINAL_PARTITION = "kafka_dlt-original-partition";
    public static final String ORIGINAL_OFFSET = "kafka_dlt-original-offset";
    public static final String ORIGINAL_TIMESTAMP = "kafka_dlt-original-timestamp";
    public static final String EXCEPTION_FQCN = "kafka_dlt-exception-fqcn";
    public static final String EXCEPTION_MESSAGE = "kafka_dlt-exception-message";
    public static final String REASON_CODE = "dynarestore_reason-code";
    /** The restore id the rejection was reported under on the status topic, when there is one. */
    public static final String RESTORE_ID = "dynarestore_restore-id";

    private DeadLetters() {}

    public static void send(
            EventPublisher publisher,
            ConsumerRecord<String, byte[]> record,
            String code,
            String reason,
            String restoreId) {
        var dead = new ProducerRecord<>(record.topic() + ".DLT", record.partition(), record.key(), record.value());
        for (Header h : record.headers()) {
            dead.headers().add(h);
        }
        dead.headers()
                .add(ORIGINAL_TOPIC, utf8(record.topic()))
                .add(
                        ORIGINAL_PARTITION,
                        ByteBuffer.allocate(4).putInt(record.partition()).array())
                .add(
                        ORIGINAL_OFFSET,
                        ByteBuffer.allocate(8).putLong(record.offset()).array())
                .add(
                        ORIGINAL_TIMESTAMP,
                        ByteBuffer.allocate(8).putLong(record.timestamp()).array())
                .add(EXCEPTION_FQCN, utf8("io.dynarestore.core.kafka.RejectedMessage"))
                .add(EXCEPTION_MESSAGE, utf8(reason))
                .add(REASON_CODE, utf8(code));
        if (restoreId != null) {
            dead.headers().add(RESTORE_ID, utf8(restoreId));
        }
        publisher.sendRecord(dead);
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
