package io.dynarestore.notifier;

import io.dynarestore.boot.ServiceSettings;
import io.dynarestore.contracts.notifications.NotificationEvent;
import io.dynarestore.contracts.webhooks.WebhookTargets;
import io.dynarestore.core.kafka.ConsumerHealth;
import io.dynarestore.core.kafka.EventPublisher;
import io.dynarestore.core.kafka.TopicDefinitions;
import io.dynarestore.core.retry.Backoff;
import io.dynarestore.core.threads.DaemonThreads;
import io.dynarestore.core.webhooks.WebhookAddresses;
import io.dynarestore.notifier.alerts.AlertFollower;
import io.dynarestore.notifier.alerts.AlertTargets;
import io.dynarestore.notifier.deliveries.Channel;
import io.dynarestore.notifier.deliveries.DeliveryLog;
import io.dynarestore.notifier.deliveries.Dispatcher;
import io.dynarestore.notifier.email.MailChannel;
import io.dynarestore.notifier.restores.StatusFollower;
import io.dynarestore.notifier.webhooks.WebhookChannel;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.mail.javamail.JavaMailSender;

/**
 * notifier: tells people and upstream systems that restores ended (mails to {@code notify.emails},
 * signed webhooks to {@code notify.webhooks}) and mails the passcode-protected links of files.
 */
@SpringBootApplication
@ConfigurationPropertiesScan
public class NotifierApplication {

    /** The service's configuration file is {@code notifier.yml} (see ADR 0003). */
    public static SpringApplicationBuilder builder() {
        return new SpringApplicationBuilder(NotifierApplication.class).properties("spring.config.name=notifier");
    }

    public static void main(String[] args) {
        builder().run(args);
    }

    /**
     * Configuration of notifier, under {@code notifier}.
     *
     * @param topics             replication and partition counts of the topics it creates
     * @param group              its consumer group
     * @param publicUrl          where people reach restore-api (links and restore pages in mails)
     * @param logWait            how long to wait for the links and delivery logs to be read up to now
     * @param maxOpen            how long an unfinished restore holds the committed offset back
     * @param parallelDeliveries deliveries sent at the same time (the threads of the delivery pool)
     * @param maxPending         deliveries waiting at most before reading restore.status pauses
     * @param alerts             alerts on failed restore drills
     */
    @ConfigurationProperties("notifier")
    public record NotifierProperties(
            TopicDefinitions topics,
            @DefaultValue("notifier") String group,
            @DefaultValue("http://localhost:8080") String publicUrl,
            @DefaultValue Mail mail,
            @DefaultValue Webhooks webhooks,
            @DefaultValue Retries retries,
            @DefaultValue("30s") Duration logWait,
            @DefaultValue("7d") Duration maxOpen,
            @DefaultValue("8") int parallelDeliveries,
            @DefaultValue("10000") int maxPending,
            @DefaultValue Alerts alerts)
            implements ServiceSettings {

        /**
         * Alerts to the operators on failed restore drills. The targets live here, never on a topic.
         *
         * @param webhooks URLs that get each failed drill's event, signed like a restore's end (the webhook rules apply)
         * @param emails   addresses that get a mail for each failed drill
         * @param group    the consumer group that follows restore.protection.events for alerts
         * @param maxAge   a failure older than this when read raises no alert (a new notifier does not page for old drills)
         */
        public record Alerts(
                List<String> webhooks,
                List<String> emails,
                @DefaultValue("notifier-alerts") String group,
                @DefaultValue("1d") Duration maxAge) {}

        /** @param from the sender of every mail */
        public record Mail(
                @DefaultValue("dynarestore@localhost") String from) {}

        /**
         * @param signingSecret the HMAC key of webhook signatures ({@code whsec_<base64>}), shared with receivers
         * @param timeout       the longest a connect or a read of one try takes (a try ends after twice this)
         * @param allowHttp     whether plain http webhook URLs are taken (the local profile only)
         * @param allow         hosts, addresses and CIDR ranges inside the network that webhooks may still go to
         */
        public record Webhooks(
                String signingSecret,
                @DefaultValue("10s") Duration timeout,
                @DefaultValue("false") boolean allowHttp,
                List<String> allow) {}

        /**
         * Tries of one delivery, and the backoff between them ({@link Backoff}: from {@code initialBackoff}, jittered).
         *
         * @param maxAttempts    tries of one delivery before it is abandoned
         * @param initialBackoff the first wait between tries
         * @param maxBackoff     the longest wait between tries
         */
        public record Retries(
                @DefaultValue("5") int maxAttempts,
                @DefaultValue("1s") Duration initialBackoff,
                @DefaultValue("30s") Duration maxBackoff) {}
    }

    /** The pool deliveries run on: its threads send, and the waits between tries are scheduled on it. */
    @Bean(destroyMethod = "shutdownNow")
    ScheduledExecutorService deliveryPool(NotifierProperties properties) {
        return Executors.newScheduledThreadPool(
                Math.max(1, properties.parallelDeliveries()), DaemonThreads.named("delivery"));
    }

    @Bean(destroyMethod = "close")
    WebhookChannel webhookChannel(NotifierProperties properties) {
        var webhooks = properties.webhooks();
        return new WebhookChannel(
                webhooks.signingSecret(),
                webhooks.timeout(),
                Clock.systemUTC(),
                WebhookAddresses.system(new WebhookTargets(webhooks.allowHttp(), webhooks.allow())));
    }

    /** What was delivered, and whom each restore asked to tell; read by both followers. */
    @Bean(initMethod = "start", destroyMethod = "close")
    DeliveryLog deliveryLog(
            KafkaProperties kafka, NotifierProperties properties, EventPublisher publisher, ConsumerHealth health) {
        // what is older than a restore may stay open cannot be read again: forget it a day after
        return new DeliveryLog(
                kafka.buildConsumerProperties(),
                publisher,
                health,
                properties.maxOpen().plusDays(1));
    }

    @Bean
    Dispatcher dispatcher(
            NotifierProperties properties,
            DeliveryLog deliveries,
            EventPublisher publisher,
            JavaMailSender mail,
            ScheduledExecutorService deliveryPool,
            MeterRegistry meters,
            WebhookChannel webhooks) {
        var channels = Map.<NotificationEvent.Channel, Channel>of(
                NotificationEvent.Channel.EMAIL,
                new MailChannel(mail, properties.mail().from()),
                NotificationEvent.Channel.WEBHOOK,
                webhooks);
        var retries = properties.retries();
        return new Dispatcher(
                deliveries,
                channels,
                new Backoff(retries.maxAttempts(), retries.initialBackoff(), retries.maxBackoff()),
                publisher,
                deliveryPool,
                meters);
    }

    @Bean(initMethod = "start", destroyMethod = "close")
    StatusFollower statusFollower(
            KafkaProperties kafka,
            NotifierProperties properties,
            DeliveryLog deliveries,
            Dispatcher dispatcher,
            ConsumerHealth health) {
        var consumer = kafka.buildConsumerProperties();
        return new StatusFollower(
                consumer,
                properties.group(),
                deliveries,
                consumer,
                dispatcher,
                properties.publicUrl(),
                properties.logWait(),
                properties.maxOpen(),
                properties.maxPending(),
                health);
    }

    /** Follows failed drills when alert targets are configured; without them it reads nothing. */
    @Bean(initMethod = "start", destroyMethod = "close")
    AlertFollower alertFollower(
            KafkaProperties kafka,
            NotifierProperties properties,
            DeliveryLog deliveries,
            Dispatcher dispatcher,
            ConsumerHealth health) {
        var alerts = properties.alerts();
        var webhooks = properties.webhooks();
        return new AlertFollower(
                kafka.buildConsumerProperties(),
                alerts.group(),
                AlertTargets.checked(
                        alerts.webhooks(), alerts.emails(), new WebhookTargets(webhooks.allowHttp(), webhooks.allow())),
                properties.publicUrl(),
                deliveries,
                dispatcher,
                properties.logWait(),
                alerts.maxAge(),
                Clock.systemUTC(),
                health);
    }
}
