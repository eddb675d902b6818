package io.dynarestore.notifier.email;

import io.dynarestore.notifier.deliveries.Channel;
import io.dynarestore.notifier.deliveries.Delivery;
import io.dynarestore.notifier.deliveries.DeliveryFailed;
import jakarta.mail.MessagingException;
import jakarta.mail.internet.MimeMessage;
import java.nio.charset.StandardCharsets;
import org.springframework.mail.MailException;
import org.springframework.mail.MailParseException;
import org.springframework.mail.javamail.JavaMailSender;
import org.springframework.mail.javamail.MimeMessageHelper;

/** Sends a plain-text mail by SMTP. An address SMTP cannot parse is not retried; anything else is. */
public final class MailChannel implements Channel {

    private final JavaMailSender mail;
    private final String from;

    public MailChannel(JavaMailSender mail, String from) {
        this.mail = mail;
        this.from = from;
    }

    @Override
    public void send(Delivery d) throws DeliveryFailed {
        try {
            MimeMessage message = mail.createMimeMessage();
            var helper = new MimeMessageHelper(message, false, "UTF-8");
            helper.setFrom(from);
            helper.setTo(d.target());
            helper.setSubject(d.subject());
            helper.setText(new String(d.body(), StandardCharsets.UTF_8), false);
            message.setHeader("X-Dynarestore-Restore-Id", d.restoreId());
            mail.send(message);
        } catch (MailParseException | MessagingException e) {
            throw new DeliveryFailed("mail to " + d.target() + " cannot be sent: " + e.getMessage(), false, e);
        } catch (MailException e) {
            throw new DeliveryFailed("SMTP did not take the mail to " + d.target() + ": " + e.getMessage(), true, e);
        }
    }
}
