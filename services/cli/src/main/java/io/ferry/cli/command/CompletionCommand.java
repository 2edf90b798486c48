package io.ferry.cli.command;

import picocli.AutoComplete;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code ferry completion bash}: a completion script for bash (and zsh with bashcompinit), from picocli's AutoComplete. */
@Command(name = "completion", mixinStandardHelpOptions = true,
        description = "Print a shell completion script for ferry (bash; zsh after `autoload -U +X bashcompinit && bashcompinit`).",
        footer = {"", "Examples:", "  source <(ferry completion bash)", "  ferry completion bash > ~/.local/share/bash-completion/completions/ferry"})
public final class CompletionCommand extends FerryCommand {

    @Parameters(index = "0", paramLabel = "SHELL", defaultValue = "bash", description = "bash or zsh")
    String shell;

    @Override
    public Integer call() {
        if (!shell.equals("bash") && !shell.equals("zsh")) {
            throw new IllegalArgumentException("completion is for bash or zsh, not " + shell);
        }
        out.print(AutoComplete.bash("ferry", spec.root().commandLine()));
        return 0;
    }
}
