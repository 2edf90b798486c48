package io.ferry.resolver.rest;

import io.ferry.resolver.config.ResolverConfig;
import io.ferry.resolver.cache.ResolutionCache;
import io.quarkus.opentelemetry.runtime.tracing.instrumentation.InstrumentationRecorder;
import io.quarkus.opentelemetry.runtime.tracing.instrumentation.vertx.OpenTelemetryVertxTracingFactory;
import io.quarkus.runtime.StartupEvent;
import io.vertx.core.Context;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.impl.ContextInternal;
import io.vertx.core.spi.tracing.SpanKind;
import io.vertx.core.spi.tracing.TagExtractor;
import io.vertx.core.spi.tracing.VertxTracer;
import io.vertx.core.tracing.TracingPolicy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

import java.util.Map;
import java.util.function.BiConsumer;

/**
 * Resolutions answered from memory start no trace of their own: a plain anonymous GET that {@link CachedResolutionRoutes}
 * answers is traced only when its caller sends a W3C {@code traceparent} (then it continues the caller's trace, as
 * every other request does). Public lookups arrive at tens of thousands a second; a span each, even one no exporter
 * sends, cost a third of such an answer's CPU (the HTTP server span parses the path and query as URIs for its
 * attributes before any sampler decides), and a trace of a memory lookup shows nothing an operator can act on. Their
 * count and latency stay in {@code http_server_requests_seconds}. Every other request (misses, writes, anything with
 * a query, a body or a token) is traced as before; {@code ferry.resolver.cache.trace-all-answers=true} traces the
 * cached ones too.
 * <p>
 * Quarkus gives no per-route tracing policy: its Vert.x tracer is wrapped here, where the HTTP server asks it to start
 * a request's span, before routing; the answer found is left in the request's context for the route.
 */
@ApplicationScoped
public class CachedAnswerTracing {

    static final String TRACEPARENT = "traceparent";

    final CachedResolutionRoutes routes;

    final ResolverConfig config;

    @Inject
    public CachedAnswerTracing(CachedResolutionRoutes routes, ResolverConfig config) {
        this.routes = routes;
        this.config = config;
    }

    void install(@Observes StartupEvent start) {
        if (config.cache().traceAllAnswers() || !routes.enabled()) {
            return;
        }
        OpenTelemetryVertxTracingFactory.VertxDelegator tracers = InstrumentationRecorder.FACTORY.getVertxTracerDelegator();
        VertxTracer<?, ?> tracer = tracers.getDelegate();
        // no delegate: tracing is off altogether (quarkus.otel.sdk.disabled)
        if (tracer != null && !(tracer instanceof UntracedCachedAnswers)) {
            tracers.setDelegate(new UntracedCachedAnswers(tracer, routes));
        }
    }

    /** Quarkus's Vert.x tracer, except for requests the cache answers and no caller traces. */
    @SuppressWarnings({"rawtypes", "unchecked"})
    static final class UntracedCachedAnswers implements VertxTracer<Object, Object> {
        private final VertxTracer delegate;
        private final CachedResolutionRoutes routes;

        UntracedCachedAnswers(VertxTracer<?, ?> delegate, CachedResolutionRoutes routes) {
            this.delegate = delegate;
            this.routes = routes;
        }

        @Override
        public <R> Object receiveRequest(Context context, SpanKind kind, TracingPolicy policy, R request, String operation,
                                         Iterable<Map.Entry<String, String>> headers, TagExtractor<R> tagExtractor) {
            if (request instanceof HttpServerRequest http && http.getHeader(TRACEPARENT) == null) {
                ResolutionCache.Entry answer = routes.answerOf(http);
                if (answer != null) {
                    ((ContextInternal) context).putLocal(CachedResolutionRoutes.FOUND_ANSWER, answer);
                    return null;
                }
            }
            return delegate.receiveRequest(context, kind, policy, request, operation, headers, tagExtractor);
        }

        @Override
        public <R> void sendResponse(Context context, R response, Object payload, Throwable failure, TagExtractor<R> tagExtractor) {
            if (payload != null) {
                delegate.sendResponse(context, response, payload, failure, tagExtractor);
            }
        }

        @Override
        public <R> Object sendRequest(Context context, SpanKind kind, TracingPolicy policy, R request, String operation,
                                      BiConsumer<String, String> headers, TagExtractor<R> tagExtractor) {
            return delegate.sendRequest(context, kind, policy, request, operation, headers, tagExtractor);
        }

        @Override
        public <R> void receiveResponse(Context context, R response, Object payload, Throwable failure, TagExtractor<R> tagExtractor) {
            delegate.receiveResponse(context, response, payload, failure, tagExtractor);
        }

        @Override
        public void close() {
            delegate.close();
        }
    }
}
