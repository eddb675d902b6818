/**
 * Writing segments: a consumer per thread takes SegmentDispatched work, a SegmentWriter writes it
 * in batches, and its collaborators each do one thing (lines to writes, the tally, applying a
 * batch, the vault); every line is accounted for in the segment's completion.
 */
package io.dynarestore.writer.segments;
