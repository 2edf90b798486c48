package io.ferry.rates.rest;

import io.ferry.rates.api.DashboardConfig;
import io.ferry.rates.config.RatesConfig;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/** What the dashboard reads before it draws: where transfer-scheduler's web monitor is (another port or host). */
@Path("/dashboard/config.json")
@Produces(MediaType.APPLICATION_JSON)
public class DashboardConfigResource {

    final RatesConfig config;

    @Inject
    public DashboardConfigResource(RatesConfig config) {
        this.config = config;
    }

    @GET
    public DashboardConfig config() {
        return new DashboardConfig(config.monitorUrl());
    }
}
