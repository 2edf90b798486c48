package io.ferry.scheduler.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

import java.util.Map;
import java.util.Optional;

/**
 * The S3 accounts the movers sign with ({@code ferry.scheduler.s3."<SE name>".*}), per storage endpoint and, where an
 * SE gives each VO its own key (bucket policies per key), per VO. Keys live only here: never in rows, answers,
 * events or logs. On Kubernetes, mount a Secret and name its files ({@code access-key-file}, {@code secret-key-file})
 * or map its keys to the environment.
 */
@ConfigMapping(prefix = "ferry.scheduler.s3")
public interface S3AccountsConfig {

    /** Per SE name (as registered, e.g. {@code CERN-S3}). */
    @io.smallrye.config.WithParentName
    Map<String, Endpoint> endpoints();

    /** The SE's account (for VOs without one of their own), its region and addressing. */
    interface Endpoint extends Keys {

        /** Per VO: the VO's own account on this SE. */
        Map<String, Keys> vos();

        /** The SigV4 region (us-east-1 where the store does not care). */
        @WithDefault("us-east-1")
        String region();

        /** Virtual-host style ({@code bucket.host}) instead of path style ({@code host/bucket}). */
        @WithDefault("false")
        boolean virtualHost();
    }

    interface Keys {

        /** The access key id, or {@link #accessKeyFile()}. */
        Optional<String> accessKey();

        /** A file holding the access key id (a mounted Secret). */
        Optional<String> accessKeyFile();

        /** The secret key, or {@link #secretKeyFile()}. */
        Optional<String> secretKey();

        /** A file holding the secret key (a mounted Secret). */
        Optional<String> secretKeyFile();
    }
}
