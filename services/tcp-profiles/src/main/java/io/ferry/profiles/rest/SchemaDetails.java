package io.ferry.profiles.rest;

import io.ferry.profiles.api.HostInput;
import io.ferry.profiles.model.Selector;
import io.ferry.profiles.model.SysctlCatalog;
import io.quarkus.smallrye.openapi.OpenApiFilter;
import org.eclipse.microprofile.openapi.OASFactory;
import org.eclipse.microprofile.openapi.OASFilter;
import org.eclipse.microprofile.openapi.models.Components;
import org.eclipse.microprofile.openapi.models.OpenAPI;
import org.eclipse.microprofile.openapi.models.media.Schema.SchemaType;
import org.eclipse.microprofile.openapi.models.media.Schema;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * What the OpenAPI document cannot learn from the records' annotations: a profile's settings (the keys and values
 * {@link SysctlCatalog} allows), the label keys of a host (annotated on a type argument, which it skips), the shape of
 * a rule's selector (recursive: an object ANDs its keys, an array ORs its selectors) and a version's diff (from and to
 * per setting, null where it was or is unset). Taken from the classes that check or write them, so the document
 * follows them.
 */
@OpenApiFilter(OpenApiFilter.RunStage.BUILD)
public class SchemaDetails implements OASFilter {

    static final String SELECTOR = "Selector";

    @Override
    public void filterOpenAPI(OpenAPI openAPI) {
        Components components = openAPI.getComponents();
        if (components == null || components.getSchemas() == null) {
            return;
        }
        Map<String, Schema> schemas = components.getSchemas();
        Schema profile = schemas.get("ProfileInput");
        if (profile != null && profile.getProperties() != null) {
            profile.addProperty("sysctls", sysctls(profile.getProperties().get("sysctls")));
            profile.addProperty("interface", interfaceSettings(profile.getProperties().get("interface")));
        }
        Schema host = schemas.get("HostInput");
        if (host != null && host.getProperties() != null && host.getProperties().get("labels") != null) {
            host.getProperties().get("labels").propertyNames(string().pattern(HostInput.LABEL_KEY));
        }
        Schema view = schemas.get("ProfileView");
        if (view != null && view.getProperties() != null) {
            Schema value = OASFactory.createSchema().addType(SchemaType.STRING).addType(SchemaType.NULL);
            Schema change = OASFactory.createSchema().addType(SchemaType.OBJECT)
                    .addProperty("from", value).addProperty("to", value).required(List.of("from", "to"));
            view.addProperty("diff", OASFactory.createSchema().addType(SchemaType.OBJECT).additionalPropertiesSchema(change));
        }
        Schema rule = schemas.get("RuleInput");
        if (rule != null && rule.getProperties() != null) {
            components.addSchema(SELECTOR, selector());
            rule.addProperty("match", OASFactory.createSchema().ref("#/components/schemas/" + SELECTOR));
        }
    }

    private static Schema sysctls(Schema annotated) {
        Schema out = OASFactory.createSchema().addType(SchemaType.OBJECT).additionalPropertiesBoolean(false)
                .description("sysctl settings by key; a triple is min default max with min <= default <= max, and a "
                        + "*_default may not exceed its *_max");
        if (annotated != null) {
            out.maxProperties(annotated.getMaxProperties());
        }
        for (String key : SysctlCatalog.knownKeys()) {
            String syntax = SysctlCatalog.syntax(key);
            Schema value = string();
            if (syntax != null) {
                value.pattern(syntax);
            } else {
                value.enumeration(List.copyOf(new TreeSet<Object>(SysctlCatalog.choices(key))));
            }
            out.addProperty(key, value);
        }
        return out;
    }

    private static Schema interfaceSettings(Schema annotated) {
        Schema out = OASFactory.createSchema().addType(SchemaType.OBJECT).additionalPropertiesBoolean(false)
                .addProperty("txqueuelen", integer(0, SysctlCatalog.TXQUEUELEN_MAX))
                .addProperty("mtu", integer(SysctlCatalog.MTU_MIN, SysctlCatalog.MTU_MAX));
        if (annotated != null) {
            out.maxProperties(annotated.getMaxProperties());
        }
        return out;
    }

    private static Schema selector() {
        Schema self = OASFactory.createSchema().ref("#/components/schemas/" + SELECTOR);
        Schema value = string().pattern(Selector.VALUE_SYNTAX);
        Schema and = OASFactory.createSchema().addType(SchemaType.OBJECT)
                .propertyNames(string().pattern(Selector.KEY_SYNTAX))
                .additionalPropertiesSchema(OASFactory.createSchema().anyOf(List.of(value,
                        OASFactory.createSchema().addType(SchemaType.ARRAY).items(value), self)));
        Schema or = OASFactory.createSchema().addType(SchemaType.ARRAY).items(self);
        return OASFactory.createSchema().anyOf(List.of(and, or))
                .description("hosts a rule applies to: an object's keys (label keys, site, storage_element, name) must "
                        + "all match, each value a name, a list of names (any) or a nested selector; an array's "
                        + "selectors are alternatives. A value ending in '*' is a prefix");
    }

    private static Schema string() {
        return OASFactory.createSchema().addType(SchemaType.STRING);
    }

    private static Schema integer(long min, long max) {
        return OASFactory.createSchema().addType(SchemaType.INTEGER).format("int32")
                .minimum(BigDecimal.valueOf(min)).maximum(BigDecimal.valueOf(max));
    }
}
