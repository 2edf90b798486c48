package io.ferry.scheduler.monitor;

import io.ferry.identity.model.FerryRoles;
import io.ferry.problem.ProblemException;
import io.ferry.scheduler.ApiPatterns;
import io.ferry.scheduler.config.MonitorConfig;
import io.ferry.scheduler.probes.LookBack;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.PermitAll;
import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;

import java.time.Duration;

/**
 * The aggregates the web monitor ({@code /monitor/}) shows and the job API lacks. Reads as {@code GET /jobs} does:
 * a VO's caller sees its own VO's files, administrators every VO's ({@code vo} narrows to one).
 */
@Path("/monitor/api")
@Produces(MediaType.APPLICATION_JSON)
public class MonitorResource {

    final MonitorService monitor;

    final MonitorConfig config;

    @Inject
    public MonitorResource(MonitorService monitor, MonitorConfig config) {
        this.monitor = monitor;
        this.config = config;
    }

    /** Public: the page reads it before anyone signs in, and it holds no data. */
    @GET
    @Path("config")
    @PermitAll
    public MonitorViews.PageConfig config() {
        return new MonitorViews.PageConfig(config.dashboardUrl());
    }

    /** Per link and per VO: active and queued files now; finished, failed, canceled, bytes and rates within the window. */
    @GET
    @Path("overview")
    @RolesAllowed({FerryRoles.TRANSFER_READ, FerryRoles.TRANSFER_SUBMIT, FerryRoles.TRANSFER_ADMIN})
    public Uni<MonitorViews.Overview> overview(@Parameter(schema = @Schema(type = SchemaType.STRING, pattern = ApiPatterns.WINDOW, defaultValue = "1h")) @QueryParam("window") @DefaultValue("1h") String window, @QueryParam("vo") String vo) {
        return monitor.overview(LookBack.parse(window), vo).map(MonitorViews.Overview::of);
    }

    /** Failures within the window (final ones and retried attempts) by link and {@code error_code}, most frequent first. */
    @GET
    @Path("errors")
    @RolesAllowed({FerryRoles.TRANSFER_READ, FerryRoles.TRANSFER_SUBMIT, FerryRoles.TRANSFER_ADMIN})
    public Uni<MonitorViews.Errors> errors(@Parameter(schema = @Schema(type = SchemaType.STRING, pattern = ApiPatterns.WINDOW, defaultValue = "24h")) @QueryParam("window") @DefaultValue("24h") String window, @QueryParam("vo") String vo,
                                           @Parameter(allowEmptyValue = true, schema = @Schema(type = SchemaType.INTEGER, minimum = "1", maximum = "1000", defaultValue = "200"))
                                           @QueryParam("limit") @DefaultValue("200") int limit) {
        if (limit < 1 || limit > 1000) {
            throw ProblemException.badRequest("limit", "between 1 and 1000");
        }
        Duration d = LookBack.parse(window);
        return monitor.errors(d, vo, limit).map(g -> new MonitorViews.Errors(d.toSeconds(), g.stream().map(MonitorViews.ErrorGroup::of).toList()));
    }

    /** Each probed link: its probes and their runs within the window, beside the link's production (bytes/s per bin). */
    @GET
    @Path("probes")
    @RolesAllowed({FerryRoles.TRANSFER_READ, FerryRoles.TRANSFER_SUBMIT, FerryRoles.TRANSFER_ADMIN})
    public Uni<MonitorViews.Probes> probes(@Parameter(schema = @Schema(type = SchemaType.STRING, pattern = ApiPatterns.WINDOW, defaultValue = "24h")) @QueryParam("window") @DefaultValue("24h") String window, @QueryParam("vo") String vo) {
        return monitor.probes(LookBack.parse(window), vo).map(MonitorViews.Probes::of);
    }
}
