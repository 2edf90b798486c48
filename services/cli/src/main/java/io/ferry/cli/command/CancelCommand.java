package io.ferry.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.ferry.cli.client.FerryHttp;
import io.ferry.cli.output.Column;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

import java.util.List;

/** {@code ferry cancel JOB… | JOB:FILE[,FILE…]}: cancels whole jobs, or some files of one. */
@Command(name = "cancel", mixinStandardHelpOptions = true,
        description = "Cancel jobs, or only some of a job's files (JOB:FILE,FILE). Files already over are left as they are.",
        footer = {"", "Examples:", "  ferry cancel 0b5f5b1e-6c0a-4a43-9a55-7c1f0f0d3a8e", "  ferry cancel JOB1 JOB2",
                "  ferry cancel 0b5f5b1e-6c0a-4a43-9a55-7c1f0f0d3a8e:17,18"})
public final class CancelCommand extends FerryCommand {

    @Parameters(arity = "1..*", paramLabel = "JOB[:FILES]", description = "job ids; JOB:FILE,FILE for some files")
    List<String> targets;

    @Override
    public Integer call() {
        FerryHttp scheduler = global().scheduler();
        ArrayNode rows = JsonNodeFactory.instance.arrayNode();
        for (String t : targets) {
            int colon = t.indexOf(':');
            if (colon < 0) {
                JsonNode answer = scheduler.delete("/jobs/" + FerryHttp.segment(t));
                (answer.isArray() ? answer : JsonNodeFactory.instance.arrayNode().add(answer)).forEach(rows::add);
                continue;
            }
            String job = t.substring(0, colon);
            String files = t.substring(colon + 1);
            if (!files.matches("\\d+(,\\d+)*")) {
                throw new IllegalArgumentException("'" + t + "': files are JOB:FILE,FILE with numeric file ids");
            }
            JsonNode states = scheduler.delete("/jobs/" + FerryHttp.segment(job) + "/files/" + files);
            String[] ids = files.split(",");
            for (int i = 0; i < ids.length; i++) {
                JsonNode state = states.isArray() ? states.get(i) : states;
                rows.addObject().put("job_id", job).put("file_id", Long.parseLong(ids[i])).put("file_state", state == null ? "" : state.asText());
            }
        }
        printer().rows(rows, List.of(Column.field("JOB", "job_id"), Column.field("FILE", "file_id"), Column.field("STATE", "job_state"),
                Column.field("FILE STATE", "file_state"), Column.field("MESSAGE", "http_message")));
        return 0;
    }
}
