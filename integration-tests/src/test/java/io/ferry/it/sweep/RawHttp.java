package io.ferry.it.sweep;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * Sends requests that {@link java.net.http.HttpClient} refuses to build (malformed percent-escapes, raw non-ASCII
 * bytes in the request line) over a plain socket, and reads the status line and headers of the answer.
 */
public final class RawHttp {

    /** The status and Content-Type of an answer, and its body (read up to Content-Length, else until the server closes). */
    public record Answer(int status, String contentType, byte[] body) {
    }

    private RawHttp() {
    }

    /** A request with {@code target} as raw bytes, and the body {} for methods that take one. */
    public static Answer send(int port, String method, byte[] target, String token, int timeoutMillis) throws IOException {
        boolean body = !method.equals("GET") && !method.equals("DELETE");
        return send(port, method, target, token, body ? "{}".getBytes(StandardCharsets.US_ASCII) : null, "application/json", false, timeoutMillis);
    }

    /**
     * A request whose body is written while the answer is read, as a browser or curl does: a server may answer (a 413,
     * say) before the body is complete and then close the connection, and that answer still counts. A {@code chunked}
     * body goes without a Content-Length.
     */
    public static Answer send(int port, String method, byte[] target, String token, byte[] body, String contentType, boolean chunked,
                              int timeoutMillis) throws IOException {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
            socket.setSoTimeout(timeoutMillis);
            OutputStream out = socket.getOutputStream();
            ByteArrayOutputStream head = new ByteArrayOutputStream();
            head.write((method + " ").getBytes(StandardCharsets.US_ASCII));
            head.write(target);
            head.write((" HTTP/1.1\r\nHost: localhost:" + port + "\r\nAccept: application/json\r\nConnection: close\r\n"
                    + (token == null ? "" : "Authorization: Bearer " + token + "\r\n")
                    + (body == null ? "" : "Content-Type: " + contentType + "\r\n"
                    + (chunked ? "Transfer-Encoding: chunked\r\n" : "Content-Length: " + body.length + "\r\n"))
                    + "\r\n").getBytes(StandardCharsets.US_ASCII));
            out.write(head.toByteArray());
            out.flush();
            Thread writer = null;
            if (body != null) {
                writer = new Thread(() -> writeBody(out, body, chunked), "raw-http-body");
                writer.setDaemon(true);
                writer.start();
            }
            InputStream in = socket.getInputStream();
            String statusLine = line(in);
            if (!statusLine.startsWith("HTTP/1.")) {
                throw new IOException("no HTTP answer: '" + statusLine + "'");
            }
            int status = Integer.parseInt(statusLine.split(" ")[1]);
            String answerType = "";
            int length = -1;
            for (String h = line(in); !h.isEmpty(); h = line(in)) {
                String lower = h.toLowerCase(Locale.ROOT);
                if (lower.startsWith("content-type:")) {
                    answerType = h.substring(13).trim();
                } else if (lower.startsWith("content-length:")) {
                    length = Integer.parseInt(h.substring(15).trim());
                }
            }
            byte[] answer = length >= 0 ? in.readNBytes(length) : in.readNBytes(1 << 20);
            if (writer != null) {
                writer.interrupt();
            }
            return new Answer(status, answerType, answer);
        }
    }

    private static void writeBody(OutputStream out, byte[] body, boolean chunked) {
        try {
            int piece = 64 << 10;
            for (int at = 0; at < body.length; at += piece) {
                int n = Math.min(piece, body.length - at);
                if (chunked) {
                    out.write((Integer.toHexString(n) + "\r\n").getBytes(StandardCharsets.US_ASCII));
                }
                out.write(body, at, n);
                if (chunked) {
                    out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
                }
            }
            if (chunked) {
                out.write("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            }
            out.flush();
        } catch (IOException e) {
            // The server stopped reading (it answered early and closed): what it answered is read by the caller.
        }
    }

    private static String line(InputStream in) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        for (int c = in.read(); c != '\n'; c = in.read()) {
            if (c < 0) {
                throw new IOException("connection closed before the end of the answer's head");
            }
            if (c != '\r') {
                b.write(c);
            }
        }
        return b.toString(StandardCharsets.ISO_8859_1);
    }
}
