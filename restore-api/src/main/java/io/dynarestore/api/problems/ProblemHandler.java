package io.dynarestore.api.problems;

import io.dynarestore.core.aws.UnknownAccountException;
import io.dynarestore.core.kafka.EventPublisher;
import java.net.URI;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.WebRequest;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;

/**
 * Every error of the API as RFC 9457 problem details: {@code type} names the problem
 * ({@code https://dynarestore.io/problems/<code>}), {@code detail} says what to do, {@code code}
 * is stable for clients to branch on, and {@code errors} lists the fields at fault.
 */
@RestControllerAdvice
class ProblemHandler extends ResponseEntityExceptionHandler {

    private static final Logger log = LoggerFactory.getLogger(ProblemHandler.class);

    @ExceptionHandler(ApiProblem.class)
    ResponseEntity<ProblemDetail> problem(ApiProblem e) {
        ProblemDetail body = ProblemDetail.forStatusAndDetail(HttpStatus.valueOf(e.status()), e.getMessage());
        body.setType(URI.create("https://dynarestore.io/problems/"
                + e.code().toLowerCase(Locale.ROOT).replace('_', '-')));
        body.setTitle(title(e.code()));
        body.setProperty("code", e.code());
        if (!e.errors().isEmpty()) {
            body.setProperty("errors", e.errors());
        }
        var response = ResponseEntity.status(e.status());
        if (e.retryAfterSeconds() != null) {
            response.header("Retry-After", String.valueOf(e.retryAfterSeconds()));
        }
        return response.body(body);
    }

    @Override
    protected ResponseEntity<Object> handleHttpMessageNotReadable(
            HttpMessageNotReadableException e, HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof RequestSizeLimit.TooLarge) {
                return ResponseEntity.status(413)
                        .body(problem(new ApiProblem(
                                        413,
                                        "REQUEST_TOO_LARGE",
                                        "The request body is larger than the limit; a restore request is a small JSON document.",
                                        null))
                                .getBody());
            }
        }
        return super.handleHttpMessageNotReadable(e, headers, status, request);
    }

    @ExceptionHandler(UnknownAccountException.class)
    ResponseEntity<ProblemDetail> unknownAccount(UnknownAccountException e) {
        return problem(new ApiProblem(422, "UNKNOWN_ACCOUNT", e.getMessage(), null));
    }

    @ExceptionHandler(EventPublisher.KafkaUnavailableException.class)
    ResponseEntity<ProblemDetail> kafkaDown(EventPublisher.KafkaUnavailableException e) {
        log.warn("Kafka unavailable", e);
        var response = problem(new ApiProblem(
                503,
                "KAFKA_UNAVAILABLE",
                "The restore could not be queued because Kafka is unavailable; nothing was started. "
                        + "Try again in a minute (the same restoreId is safe to resend).",
                null));
        return ResponseEntity.status(503).header("Retry-After", "30").body(response.getBody());
    }

    private static String title(String code) {
        String words = code.toLowerCase(Locale.ROOT).replace('_', ' ');
        return Character.toUpperCase(words.charAt(0)) + words.substring(1);
    }
}
