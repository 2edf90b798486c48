package io.ferry.scheduler.storage;

import io.ferry.storageurl.StorageUrl;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.util.Optional;
import java.util.Set;

/** The registered SEs as the scheduling passes see them (sites for records, base URLs and caps for movers). */
@ApplicationScoped
public class SiteDirectory {

    final SchedulingInputsCache inputs;

    @Inject
    public SiteDirectory(SchedulingInputsCache inputs) {
        this.inputs = inputs;
    }

    /** The SE, read again if it was registered since the last read; null if it is not registered. */
    public SchedulingInputs.Se se(String name) {
        return inputs.get(Set.of(name)).ses().get(name);
    }

    /** The SE a canonical storage URL belongs to now (the longest matching base URL); empty if none. */
    public Optional<String> seOf(StorageUrl url) {
        return inputs.get().seOf(url);
    }
}
