package io.dynarestore.writer.segments;

import io.dynarestore.contracts.work.SegmentDispatched;
import io.dynarestore.core.aws.AwsClients;
import io.dynarestore.core.pitr.KeyHash;
import io.dynarestore.core.undo.UndoJournal;
import io.dynarestore.core.vault.DataFileReader;
import io.dynarestore.core.vault.KeyPrefilter;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * What a segment reads from and writes to the vault: its data file, and its undo journal. Every
 * call goes through the S3 breaker; a missing file or denied access fails the segment for good
 * (naming what to grant), an outage only for now.
 */
record SegmentVault(AwsClients aws, Outages outages, Clock clock) {

    private static final Logger log = LoggerFactory.getLogger(SegmentVault.class);

    /** Most keys a segment's next owner takes from the journal of its earlier owners (16 bytes and a flag each). */
    static final int TAKEN_LIMIT = 500_000;

    /**
     * The segment's data file, streamed, its lines that {@code prefilter} does not want passed over
     * unparsed (every line read where it is {@code null}); waits while the S3 breaker is open unless
     * {@code aborted}.
     */
    DataFileReader open(SegmentDispatched work, KeyPrefilter prefilter, BooleanSupplier aborted) {
        var source = work.source();
        var s3 = outages.s3();
        if (!outages.permit(s3, aborted)) {
            throw new SegmentAbortedException();
        }
        long started = System.nanoTime();
        try {
            var object = aws.s3().getObject(b -> b.bucket(source.bucket()).key(source.key()));
            var reader = DataFileReader.selective(source.key(), object, source.md5Checksum(), prefilter);
            Outages.succeeded(s3, started);
            return reader;
        } catch (NoSuchKeyException e) {
            Outages.succeeded(s3, started);
            throw new PermanentWriteException(
                    "data file s3://" + source.bucket() + "/" + source.key() + " is missing from the vault", e);
        } catch (S3Exception e) {
            throw failed(
                    e,
                    started,
                    "access to s3://" + source.bucket() + "/" + source.key()
                            + " is denied; grant s3:GetObject on the vault to item-writer",
                    "S3 failed to serve " + source.key());
        } catch (SdkClientException e) {
            Outages.failed(s3, started, e);
            throw new TransientWriteException("S3 is unreachable: " + e.getMessage(), e);
        }
    }

    /** Saves the prior images of a batch's keys before the batch changes them; no journal, no write. */
    void saveJournal(SegmentDispatched work, List<UndoJournal.Entry> entries, long line, String writer) {
        var s3 = outages.s3();
        long startedAt = System.nanoTime();
        try {
            UndoJournal.append(
                    aws.s3(),
                    work.journal().bucket(),
                    work.journal().prefix(),
                    work.segment(),
                    line,
                    writer,
                    clock.millis(),
                    entries);
            Outages.succeeded(s3, startedAt);
        } catch (S3Exception e) {
            throw failed(
                    e,
                    startedAt,
                    "item-writer may not write the undo journal to s3://"
                            + work.journal().bucket() + "/" + work.journal().prefix() + "; grant it s3:PutObject there",
                    "the undo journal could not be saved to S3");
        } catch (SdkClientException e) {
            Outages.failed(s3, startedAt, e);
            throw new TransientWriteException("S3 is unreachable for the undo journal: " + e.getMessage(), e);
        }
    }

    /**
     * What earlier owners of the segment changed after line {@code after}, from the journal; an
     * unreadable or too large journal only makes the counts inexact, never the items.
     */
    Map<KeyHash, Boolean> changedBefore(SegmentDispatched work, long after, List<String> keyNames) {
        try {
            var taken = UndoJournal.changedAfter(
                    aws.s3(),
                    work.journal().bucket(),
                    work.journal().prefix(),
                    work.segment(),
                    after,
                    keyNames,
                    TAKEN_LIMIT);
            if (taken == null) {
                log.warn(
                        "restore {} segment {}: its earlier owners changed more than {} keys since line {}; items "
                                + "they wrote count as unchanged",
                        work.restoreId(),
                        work.segment(),
                        TAKEN_LIMIT,
                        after);
            }
            return taken == null || taken.isEmpty() ? null : taken;
        } catch (RuntimeException e) {
            log.warn(
                    "restore {} segment {}: its journal could not be read ({}); items its earlier owners wrote "
                            + "count as unchanged",
                    work.restoreId(),
                    work.segment(),
                    e.toString());
            return null;
        }
    }

    /**
     * The failure of an S3 call, after telling the S3 breaker whether it was an outage (5xx): a
     * permanent one when access is denied ({@code denied} says what to grant), else transient.
     */
    private RuntimeException failed(S3Exception e, long startedNanos, String denied, String failed) {
        if (e.statusCode() >= 500) {
            Outages.failed(outages.s3(), startedNanos, e);
        } else {
            Outages.succeeded(outages.s3(), startedNanos);
        }
        return e.statusCode() == 403
                ? new PermanentWriteException(denied, e)
                : new TransientWriteException(failed + ": " + e.getMessage(), e);
    }
}
