package io.ferry.rates.json;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.type.LogicalType;
import io.quarkus.jackson.ObjectMapperCustomizer;
import jakarta.inject.Singleton;

import java.io.IOException;
import java.util.function.LongFunction;

/**
 * Reads JSON scalars as their own type: a boolean or a number where a name is expected ({@code "sites":[false]}) and
 * a number with a fraction where a count is ({@code "retransmits":2.5}) are 400s naming the field, where Jackson would
 * store {@code "false"} or drop the fraction. A whole number written with a fraction ({@code 65.0}) is that number, as
 * JSON Schema's integer takes it.
 */
@Singleton
public class StrictScalars implements ObjectMapperCustomizer {

    @Override
    public void customize(ObjectMapper mapper) {
        mapper.coercionConfigFor(LogicalType.Textual)
                .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail)
                .setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
                .setCoercion(CoercionInputShape.Float, CoercionAction.Fail);
        mapper.registerModule(new SimpleModule("ferry-whole-numbers")
                .addDeserializer(Long.class, new WholeNumber<>(Long.class, Long.MIN_VALUE, Long.MAX_VALUE, v -> v))
                .addDeserializer(Integer.class, new WholeNumber<>(Integer.class, Integer.MIN_VALUE, Integer.MAX_VALUE, v -> (int) v)));
    }

    /** An integer field: JSON integers as Jackson reads them, and numbers with a fraction only when it is zero. */
    static final class WholeNumber<T extends Number> extends JsonDeserializer<T> {
        private final Class<T> type;
        private final double min;
        private final double max;
        private final LongFunction<T> of;

        WholeNumber(Class<T> type, long min, long max, LongFunction<T> of) {
            this.type = type;
            this.min = min;
            this.max = max;
            this.of = of;
        }

        @Override
        public T deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
            if (p.currentToken() == JsonToken.VALUE_NUMBER_FLOAT) {
                double d = p.getDoubleValue();
                if (d != Math.rint(d) || d < min || d > max) {
                    return type.cast(ctxt.handleWeirdNumberValue(type, p.getNumberValue(), "not a whole number in range"));
                }
                return of.apply((long) d);
            }
            if (p.currentToken() == JsonToken.VALUE_NUMBER_INT) {
                if (p.getNumberType() == JsonParser.NumberType.BIG_INTEGER || p.getLongValue() < min || p.getLongValue() > max) {
                    return type.cast(ctxt.handleWeirdNumberValue(type, p.getNumberValue(), "out of range"));
                }
                return of.apply(p.getLongValue());
            }
            return type.cast(ctxt.handleUnexpectedToken(type, p));
        }
    }
}
