package io.dynarestore.protector.changelog;

/** The capture cannot go on from where it stands: writes since then are lost to it, and the gap is reported. */
final class CaptureGap extends RuntimeException {

    CaptureGap(String reason) {
        super(reason);
    }
}
