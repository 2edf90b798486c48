package io.ferry.rates.json;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.module.SimpleModule;
import io.quarkus.jackson.ObjectMapperCustomizer;
import jakarta.inject.Singleton;

import java.time.OffsetDateTime;

/** Registers {@link UtcTimestampDeserializer} for every timestamp the service reads. */
@Singleton
public class TimestampModule implements ObjectMapperCustomizer {

    /** Runs after Quarkus registers the JavaTimeModule: of two modules, the one registered last is asked first. */
    @Override
    public int priority() {
        return MINIMUM_PRIORITY;
    }

    @Override
    public void customize(ObjectMapper mapper) {
        mapper.registerModule(new SimpleModule("ferry-timestamps").addDeserializer(OffsetDateTime.class, new UtcTimestampDeserializer()));
    }
}
