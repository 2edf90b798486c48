package io.ferry.rates.rest;

import io.ferry.rates.api.Comparison;
import io.ferry.rates.api.LinkTable;
import io.ferry.rates.api.Matrix;
import io.ferry.rates.api.RateSeriesView;
import io.ferry.rates.api.Regression;
import io.ferry.rates.api.SiteTable;
import io.ferry.rates.api.Syntax;
import io.ferry.rates.service.CostMatrix;
import io.ferry.rates.service.LinkQueries;
import io.ferry.rates.service.RateSeries;
import io.ferry.rates.service.RecordAnalysis;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;

/** Public monitoring reads: link tables, time series, the cost matrix, regressions and comparisons. */
@Path("/")
@Produces(MediaType.APPLICATION_JSON)
public class RatesResource {

    final LinkQueries links;

    final RateSeries series;

    final CostMatrix cost;

    final RecordAnalysis analysis;

    final io.ferry.rates.service.ProbeSeries probes;

    @Inject
    public RatesResource(
            LinkQueries links,
            RateSeries series,
            CostMatrix cost,
            RecordAnalysis analysis,
            io.ferry.rates.service.ProbeSeries probes) {
        this.links = links;
        this.series = series;
        this.cost = cost;
        this.analysis = analysis;
        this.probes = probes;
    }

    /** {@code GET /probes?source=SE&destination=SE&window=7d}: the link's probe runs (at most 30 days), each with its 12-hour average. */
    @GET
    @Path("probes")
    public Uni<io.ferry.rates.api.ProbeSeriesView> probes(
            @QueryParam("source") @Parameter(required = true,
                    schema = @Schema(type = SchemaType.STRING, pattern = Syntax.NOT_BLANK)) String source,
            @QueryParam("destination") @Parameter(required = true,
                    schema = @Schema(type = SchemaType.STRING, pattern = Syntax.NOT_BLANK)) String destination,
            @QueryParam("window") @Parameter(
                    schema = @Schema(type = SchemaType.STRING, pattern = Syntax.PROBE_WINDOW)) String window) {
        return probes.series(source, destination, window);
    }

    /** {@code GET /probes/links?window=7d}: the links with probe runs in the window, with their counts and mean throughput. */
    @GET
    @Path("probes/links")
    public Uni<java.util.List<io.ferry.rates.api.ProbedLink>> probedLinks(
            @QueryParam("window") @Parameter(
                    schema = @Schema(type = SchemaType.STRING, pattern = Syntax.PROBE_WINDOW)) String window) {
        return probes.links(window);
    }

    /** The dashboard lives at /dashboard/. */
    @GET
    @Produces(MediaType.TEXT_HTML)
    public jakarta.ws.rs.core.Response root() {
        return jakarta.ws.rs.core.Response.seeOther(java.net.URI.create("/dashboard/index.html")).build();
    }

    /** {@code GET /links?window=24h&by=link|site|group|vo}: one row per link with its figures. */
    @GET
    @Path("links")
    public Uni<LinkTable> links(
            @QueryParam("window") @Parameter(
                    schema = @Schema(type = SchemaType.STRING, pattern = Syntax.WINDOW)) String window,
            @QueryParam("by") @Parameter(
                    schema = @Schema(type = SchemaType.STRING, enumeration = {"link", "site", "group", "vo"}))
            String by) {
        return links.links(by, window);
    }

    /** {@code GET /sites?window=7d}: files and bytes into and out of each site. */
    @GET
    @Path("sites")
    public Uni<SiteTable> sites(@QueryParam("window") @Parameter(
            schema = @Schema(type = SchemaType.STRING, pattern = Syntax.WINDOW)) String window) {
        return links.sites(window);
    }

    /** {@code GET /rates?source=&destination=&window=6mo&bin=12h[&by=][&top=5][&k=3]}. */
    @GET
    @Path("rates")
    public Uni<RateSeriesView> rates(
            @QueryParam("source") String source, @QueryParam("destination") String destination,
            @QueryParam("window") @Parameter(
                    schema = @Schema(type = SchemaType.STRING, pattern = Syntax.WINDOW)) String window,
            @QueryParam("bin") @Parameter(description = "at most 20,000 bins per window", schema = @Schema(
                    type = SchemaType.STRING, pattern = Syntax.BIN)) String bin,
            @QueryParam("by") @Parameter(
                    schema = @Schema(type = SchemaType.STRING, enumeration = {"link", "site", "vo"}))
            String by,
            @QueryParam("top") @Parameter(allowEmptyValue = true, schema = @Schema(type = SchemaType.INTEGER, format = "int32", minimum = "0",
                    maximum = "100")) Integer top,
            @QueryParam("k") @Parameter(allowEmptyValue = true, description = "spike factor", schema = @Schema(type = SchemaType.NUMBER,
                    format = "double", minimum = "1", exclusiveMinimum = true)) Double k) {
        return series.series(by, source, destination, window, bin, top, k);
    }

    /** {@code GET /cost?from=SE1,SE2&to=SE3,SE4&filesize=11MB}: expected seconds per file, each cell with its basis. */
    @GET
    @Path("cost")
    public Uni<Matrix> cost(
            @QueryParam("from") @Parameter(required = true,
                    schema = @Schema(type = SchemaType.STRING, pattern = Syntax.NAMES)) String from,
            @QueryParam("to") @Parameter(required = true,
                    schema = @Schema(type = SchemaType.STRING, pattern = Syntax.NAMES)) String to,
            @QueryParam("filesize") @Parameter(
                    schema = @Schema(type = SchemaType.STRING, pattern = Syntax.SIZE)) String filesize) {
        return cost.cost(from, to, filesize);
    }

    @GET
    @Path("regression")
    public Uni<Regression> regression(
            @QueryParam("source") @Parameter(required = true,
                    schema = @Schema(type = SchemaType.STRING, pattern = Syntax.NOT_BLANK)) String source,
            @QueryParam("destination") @Parameter(required = true,
                    schema = @Schema(type = SchemaType.STRING, pattern = Syntax.NOT_BLANK)) String destination,
            @QueryParam("from") @Parameter(required = true,
                    schema = @Schema(type = SchemaType.STRING, pattern = Syntax.TIME)) String from,
            @QueryParam("to") @Parameter(required = true, description = "after from, by at most 366 days",
                    schema = @Schema(type = SchemaType.STRING, pattern = Syntax.TIME)) String to) {
        return analysis.regression(source, destination, from, to);
    }

    /** {@code GET /compare?source=&destination=|se=|site=&at=&window=7d}: before/after with a Mann-Whitney U test. */
    @GET
    @Path("compare")
    public Uni<Comparison> compare(@QueryParam("source") String source, @QueryParam("destination") String destination,
                                                  @QueryParam("se") String se, @QueryParam("site") String site,
                                                  @QueryParam("at") @Parameter(required = true,
                                                          schema = @Schema(type = SchemaType.STRING, pattern = Syntax.TIME)) String at,
                                                  @QueryParam("window") @Parameter(
                                                          schema = @Schema(type = SchemaType.STRING, pattern = Syntax.WINDOW)) String window) {
        return analysis.compare(source, destination, se, site, at, window);
    }
}
