package io.dynarestore.api.problems;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Refuses request bodies larger than {@code api.max-request-size} (1 MB: a restore request is a
 * few KB) with 413 and problem details, whether the client declares the length or streams it
 * chunked, so that no body is read into memory beyond the limit.
 */
@Component
class RequestSizeLimit extends OncePerRequestFilter {

    private final long limit;

    RequestSizeLimit(@Value("${api.max-request-size:1048576}") long limit) {
        this.limit = limit;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        if (request.getContentLengthLong() > limit) {
            refuse(response);
            return;
        }
        // a body without a declared length stops at the limit with TooLarge, which ProblemHandler answers with 413
        chain.doFilter(new Limited(request, limit), response);
    }

    private void refuse(HttpServletResponse response) throws IOException {
        response.setStatus(413);
        response.setContentType("application/problem+json");
        response.getOutputStream()
                .write(("{\"type\":\"https://dynarestore.io/problems/request-too-large\","
                                + "\"title\":\"Request too large\",\"status\":413,\"code\":\"REQUEST_TOO_LARGE\",\"detail\":\"The request "
                                + "body is larger than " + limit
                                + " bytes; a restore request is a small JSON document.\"}")
                        .getBytes(StandardCharsets.UTF_8));
    }

    /** Thrown by a body read beyond the limit; the problem handler answers it with 413. */
    static final class TooLarge extends IOException {
        TooLarge(long limit) {
            super("request body larger than " + limit + " bytes");
        }
    }

    /** A request whose body stops (with an error) after {@code limit} bytes. */
    private static final class Limited extends HttpServletRequestWrapper {
        private final long limit;
        private ServletInputStream stream;

        Limited(HttpServletRequest request, long limit) {
            super(request);
            this.limit = limit;
        }

        @Override
        public ServletInputStream getInputStream() throws IOException {
            if (stream == null) {
                ServletInputStream in = super.getInputStream();
                stream = new ServletInputStream() {
                    private long read;

                    @Override
                    public int read() throws IOException {
                        int b = in.read();
                        if (b >= 0) {
                            count(1);
                        }
                        return b;
                    }

                    @Override
                    public int read(byte[] buffer, int off, int len) throws IOException {
                        int n = in.read(buffer, off, len);
                        if (n > 0) {
                            count(n);
                        }
                        return n;
                    }

                    private void count(int n) throws IOException {
                        read += n;
                        if (read > limit) {
                            throw new TooLarge(limit);
                        }
                    }

                    @Override
                    public boolean isFinished() {
                        return in.isFinished();
                    }

                    @Override
                    public boolean isReady() {
                        return in.isReady();
                    }

                    @Override
                    public void setReadListener(ReadListener listener) {
                        in.setReadListener(listener);
                    }
                };
            }
            return stream;
        }
    }
}
