package io.ferry.rates.alto.api;

/** The media types of RFC 7285 §8.2 that Ferry's ALTO face serves or takes. */
public final class AltoMediaTypes {

    public static final String DIRECTORY = "application/alto-directory+json";
    public static final String NETWORK_MAP = "application/alto-networkmap+json";
    public static final String COST_MAP = "application/alto-costmap+json";
    public static final String COST_MAP_FILTER = "application/alto-costmapfilter+json";
    public static final String ERROR = "application/alto-error+json";

    private AltoMediaTypes() {
    }
}
