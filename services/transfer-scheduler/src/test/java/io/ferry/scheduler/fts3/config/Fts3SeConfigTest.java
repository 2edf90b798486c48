package io.ferry.scheduler.fts3.config;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.ferry.problem.Problem;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class Fts3SeConfigTest {

    static final ObjectMapper JSON = new ObjectMapper();

    static Fts3SeConfig parse(String cfg, List<Problem.FieldError> errors) throws Exception {
        return Fts3SeConfig.parse("SE", JSON.readTree(cfg), errors);
    }

    @Test
    void fieldsFerryActsOnAreTakenOutAndTheRestKeptAsFts3TypesThem() throws Exception {
        List<Problem.FieldError> errors = new ArrayList<>();
        Fts3SeConfig c = parse("{\"se_info\":{\"inbound_max_active\":\"12\",\"outbound_max_active\":7,\"site\":\"CERN-PROD\","
                + "\"tpc_support\":\"PUSH\",\"udt\":false,\"outbound_max_throughput\":\"2.5\",\"debug_level\":null,\"se_metadata\":\"x\"},"
                + "\"operations\":{\"atlas\":{\"staging\":\"30\",\"delete\":0}}}", errors);
        assertTrue(errors.isEmpty(), errors.toString());
        assertEquals(12, c.inboundMaxActive());
        assertEquals(7, c.outboundMaxActive());
        assertEquals("CERN-PROD", c.site());
        assertEquals(true, c.thirdPartyCopy());
        // a Python bool is an int to FTS3; null leaves the field as it is
        assertEquals(Map.of("tpc_support", "PUSH", "udt", 0L, "outbound_max_throughput", 2.5, "se_metadata", "x"), c.extras());
        assertEquals(Map.of("atlas", Map.of("staging", 30, "delete", 0)), c.operations());
    }

    @Test
    void tpcSupportNoneMeansNoThirdPartyCopyAndAbsentLeavesIt() throws Exception {
        List<Problem.FieldError> errors = new ArrayList<>();
        assertEquals(false, parse("{\"se_info\":{\"tpc_support\":\"NONE\"}}", errors).thirdPartyCopy());
        Fts3SeConfig untouched = parse("{\"operations\":{}}", errors);
        assertNull(untouched.thirdPartyCopy());
        assertNull(untouched.inboundMaxActive());
        assertTrue(errors.isEmpty(), errors.toString());
    }

    @Test
    void everyRefusedFieldIsNamed() throws Exception {
        List<Problem.FieldError> errors = new ArrayList<>();
        parse("{\"se_info\":{\"colour\":1,\"inbound_max_active\":0,\"outbound_max_active\":1.5,\"ipv6\":\"yes\",\"tpc_support\":\"ALL\","
                + "\"site\":\"no spaces\",\"inbound_max_throughput\":\"fast\"},\"operations\":{\"atlas\":{\"staging\":\"lots\"},\"cms\":3}}", errors);
        assertEquals(List.of("SE.se_info.colour", "SE.se_info.inbound_max_active", "SE.se_info.outbound_max_active", "SE.se_info.ipv6",
                        "SE.se_info.tpc_support", "SE.se_info.site", "SE.se_info.inbound_max_throughput", "SE.operations.atlas.staging",
                        "SE.operations.cms"),
                errors.stream().map(Problem.FieldError::field).toList());
        assertEquals("Field colour unknown", errors.get(0).message());
        assertEquals("Field outbound_max_active is expected to be int", errors.get(2).message());
        errors.clear();
        assertNull(Fts3SeConfig.parse("SE", JSON.readTree("[]"), errors));
        assertEquals(1, errors.size());
    }
}
